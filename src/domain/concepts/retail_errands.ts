/** Retail, errands and delivery (the concept layer's data: src/domain/concepts/work.ts says how it is read). */
import type { Concept } from "./concept.ts"

export const retailAndErrands: ReadonlyArray<Concept> = [
  // Retail.
  {
    // A shop is a premises: what work is about says where it is when nothing else does.
    concept: "store",
    family: "retail",
    mode: "physical",
    en: "store stores shop shops supermarket supermarkets retail retailer grocery groceries outlet outlets boutique boutiques shopkeeper shopkeepers shop-owner shop-owners store-owner store-owners stallholder stallholders stall-owner stall-owners market-trader market-traders",
    stems:
      "tendero tendera comerciant commerçant commercant negoziant ladenbesitz winkelier sklepikar esnaf$ lavochnik лавочник продавц دکاندار دكان दुकानदार 店主 店家 가게-주인 pedagang pemilik-toko chủ-cửa-hàng chu-cua-hang mwenye-duka wenye-maduka cua-hang cửa-hàng கடை$ ሱቅ$ trgovin botig parduotuv veikal ሱቅ पसल கடை kedai shago geschäft geschaft laden$ supermarkt supermarch supermercad tienda tiendas loja lojas negozi winkel sklep mağaza magaza магазин супермаркет متجر سوبرماركت दुकान スーパー 店舗 超市 商店 마트 매장 magazinul magazinel supermarket καταστημ חנות סופרמרקט ร้านค้า ซูเปอร์มาร์เก็ต cua-hang sieu-thi duka$ maduka uzlet üzlet aruhaz áruház"
  },
  {
    concept: "price",
    family: "retail",
    en: "price prices pricing",
    stems:
      "ዋጋ$ விலை$ cijen cene$ preus$ preu$ kainos$ kainu$ cenas$ farashi ዋጋ मूल्य விலை harga preis prix precio preço preco prezz prijs cen fiyat цен سعر أسعار कीमत दाम 価格 价格 價格 가격 pretur pretul מחיר τιμες τιμων τιμη ราคา цін bei$ arak$ árak$ arazas árazás"
  },
  {
    concept: "shelf",
    family: "retail",
    mode: "physical",
    // "facings" whole, among the stems: Porter makes it "face".
    en: "shelf shelves shelf-share planogram planograms",
    stems:
      "facings$ regal rayon étagère etagere linéaire lineaire estante lineal scaffal schap półk polk raf$ rafl полк планограм planogram رف 棚 货架 진열 raft$ rafturi raftul מדף ραφι ชั้นวาง полиц rafu$"
  },
  {
    concept: "mystery-shopping",
    work: true,
    family: "retail",
    mode: "physical",
    en: "mystery-shopping mystery-shopper mystery secret-shopper secret-shopping as-a-customer posing-as-a pose-as-a undercover-customer anonymous-customer anonymous-shopper normal-customer normal-guest normal-diner normal-shopper ordinary-customer ordinary-guest ordinary-diner ordinary-shopper everyday-customer",
    stems:
      "testkauf client-normal cliente-normal cliente-comune normaler-kunde normale-kunde gewone-klant zwykły-klient zwykly-klient normal-müşteri normal-musteri обычный-покупател обычный-клиент client-myster client-anonym comme-un-client tant-que-client cliente-anonim cliente-anónim como-cliente come-cliente anonymer-kund anonymen-kund als-kunde anonieme-klant als-klant klient-anonim jako-klient cliente-misterio cliente-oculto cliente-miste gizli-müşteri gizli-musteri тайный-покупатель متسوق-خفي ミステリーショッパー 神秘顾客 미스터리 קונה-סמוי μυστικος-πελατ ผู้ซื้อลึกลับ таємний-покуп client-mister khach-hang-bi haamuasiak tajný-nákupč tajny-nakupc próbavásárl probavasarl pembeli-misterius tajemniczy-klient tajemniczego-klient"
  },
  {
    concept: "promotion",
    family: "retail",
    en: "promotion promotions discount discounts",
    stems: "aktion rabatt promo remise descuento desconto sconto korting rabat indirim скидк خصم छूट 割引 折扣 할인"
  },
  {
    concept: "ecommerce",
    family: "retail",
    en: "e-commerce ecommerce online-shop online-store web-shop web-store e-shop marketplace marketplaces seller sellers storefront listing listings sku skus",
    stems:
      "onlineshop webshop boutique-en-ligne tienda-online loja-online negozio-online sklep-internet verkäufer verkaufer vendeur vendedor venditor verkoper sprzedaw satıcı satici продав بائع विक्रेता 卖家 販売者 판매자 ηλεκτρονικο-καταστημα חנות-אונליין לחנות-אונליין חנות-מקוונת לחנות-מקוונת διαδικτυακο-καταστημα интернет-магазин інтернет-магазин онлайн-магазин ร้านค้าออนไลน์ ร้านออนไลน์ magazin-online hang-truc-tuyen duka-la-mtandaoni"
  },
  {
    // Whether a thing is genuine is seen with the thing in hand: said alone, on site.
    concept: "authenticity",
    family: "retail",
    mode: "physical",
    en: "authentic authenticity counterfeit fake-goods genuine",
    stems:
      "echtheit authenticit autenticid autenticid keaslian asli$ orijinal подлинн أصالة प्रामाणिक 真贋 真伪 진품 מקוריות זיוף γνησι ของแท้ справжн autenticit hang-that hang-gia uhalisia"
  },
  {
    concept: "unboxing",
    family: "retail",
    mode: "physical",
    en: "unbox unboxing",
    stems: "auspack déballage deballage desembal unboxing"
  },
  {
    concept: "purchase",
    family: "retail",
    en: "purchase purchases buy buying order",
    stems:
      "kauf achat achet compra acquist koop zakup satın satin покуп شراء खरीद 購入 购买 구매 beli$ membeli купів cumpar kununua"
  },

  // Errands and delivery.
  {
    concept: "courier",
    work: "shared",
    // To "hand" something (a letter, the keys) to someone is to carry it there; "by hand" is not.
    family: "errands",
    mode: "physical",
    en: "courier couriers couriered pickup pick messenger carriage carry dropoff drop-off parcel parcels package packages envelope hand-a hand-an hand-the hand-it hand-this hand-these hand-them hand-over dispatch-rider dispatch-riders delivery-rider delivery-riders okada boda-boda runner runners",
    stems:
      "kurjer missatger கூரியர் שליח кур'єр кур’єр ταχυμεταφορ κουριερ ส่งพัสดุ พัสดุ kurier paket coursier colis mensajer paquet corriere pacco encomenda koerier pakket paczk kurye paket$ курьер посылк пакет مندوب طرد कूरियर पार्सल 宅配 快递 快遞 配送员 택배 kurir paket curier giao-hang msafirishaji futar futár কুরিয়ার kurýr kuryr estafeta motoboy fattorino پیک$ lähetti lahetti kuljetu кур-єр кур-ер 配達員 배달원 คนส่งของ"
  },
  {
    // Handing something over, which every deliverable is too ("deliver a CSV", "48-hour edited
    // delivery"), and handing it back or posting it: said of many kinds of work, so it asks for
    // none, and says nothing of where the work is done.
    concept: "delivery",
    family: "errands",
    en: "delivery deliveries deliver delivered delivering hand-back hand-it-back hand-them-back hand-this-back hand-these-back hand-in hand-it-in post-us post-it post-them post-back post-to-us by-post in-the-post e-mail email emailed emails courriel correo-electronico correo-electrónico correio-eletronico correio-eletrônico posta-elettronica",
    stems:
      "dostav lliura pristatym piegad 배송 டெலிவரி डेलिभरी ማድረስ משלוח доставк ส่งเอกสาร zustell liefer livr entreg envío envio consegn entregad bezorg przesył przesyl teslim достав توصيل डिलीवरी 配達 配送 배달 antar livrar kupeleka kusambaza szallit szállít kezbesit ডেলিভারি doruč doruc dostaw pengirim จัดส่ง 送货 送件 leveran"
  },
  {
    concept: "errand",
    work: true,
    family: "errands",
    mode: "physical",
    en: "errand errands",
    stems:
      "behördengang behordengang démarche demarche trámite tramite gestion file-d-attente fila$ schlange kolejk sıra sira очеред مشوار طابور कतार 行列 排队 排隊 줄서기 대기"
  },
  {
    concept: "government-office",
    family: "errands",
    mode: "physical",
    // A registry is the company register's (company-registry), not a counter to queue at.
    en: "government municipal rto ministry",
    stems:
      "அரசு behörde behorde amt$ ämter mairie préfecture prefecture administration administrac administraç gemeente urząd urzad belediye ведомств администрац حكومي بلدية सरकारी नगर कार्यालय 役所 政府 관공서"
  },
  {
    concept: "document",
    // "Records" are kept papers (a registry's, a clinic's) before they are recordings.
    en: "document documents paper papers paperwork certificate certificates contract contracts records",
    stems:
      "ஆவண dokument unterlag urkunde vertrag verträg vertrag contrat contrato contratt contract umow umów sözleşme sozlesme договор عقد अनुबंध 契約書 合同 계약서 document documento documenti belge документ справк وثيق مستند दस्तावेज़ दस्तावेज प्रमाणपत्र 書類 文件 证书 서류 מסמכ מסמך εγγραφ เอกสาร giay-to tai-lieu nyaraka dokumentum irat$ iratok নথি কাগজপত্র قرارداد مدارک"
  },
  {
    concept: "submission",
    family: "errands",
    en: "submit submission submitting lodge lodging",
    stems:
      "சமர்ப்பி einreich abgeb déposer deposer dépôt depot presentar consegnare indienen złożyć zlozyc teslim-et подать подач تقديم जमा 提出 提交 제출"
  },
  {
    concept: "certified",
    family: "legal",
    en: "certified certify certification",
    stems:
      "beglaubig zertifiz certifi certific jurada juramentad giurat beëdigd przysięg przysieg uwierzyteln onaylı onayli заверен مصدق प्रमाणित 認証 认证 공인"
  },
  {
    concept: "sworn",
    family: "legal",
    en: "sworn",
    stems: "vereidigt assermenté assermente jurado juramentado giurato beëdigde yeminli присяжн محلف शपथ 宣誓 宣誓翻译"
  },
  {
    concept: "notary",
    work: true,
    family: "legal",
    mode: "physical",
    en: "notary notarize notarized notarization notarial notarizing notarise notarised notarisation witnessing witness commissioner affidavit affidavits oath oaths statutory-declaration",
    stems:
      "biljeznik ኖታሪ நோட்டரி eidesstattlich affidavit присяг notar notaire notari notário notario notaio noterd noterl notere$ noter-onay noter-tasdik noter-huzur нотари موثق كاتب-عدل नोटरी 公証 公证 公證 공증 beglaubig נוטריון συμβολαιογρ โนตารี cong-chung kozjegyz közjegyz notaar нотарі دفترخانه محضر"
  }
]
