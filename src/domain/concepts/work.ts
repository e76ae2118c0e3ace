/**
 * The concept layer of matching, as data: kinds of work, the things they are about, and what
 * comes of them, each one concept whatever the language it is named in. Every word of a
 * participant's profile and of a task that names a concept reads as that concept's key, so
 * "translation", "Übersetzung", "traduction", "перевод" and "翻訳" meet; a concept's `family`
 * groups related work (translation, interpretation and subtitling are language work) and weighs
 * as soft evidence; its `mode` is where such work happens when the wording says no more.
 *
 * How each list is read (src/domain/words.ts):
 * - `en`: English words, each matched as written and by its Porter stem ("translated" meets
 *   "translation"); a word as written wins over a stem another concept lists ("documentation"
 *   is documentation, "documents" paperwork).
 * - `stems`: the concept's words in other languages and scripts, folded (accents and case gone),
 *   each matched as the beginning of a word ("tradu" is "traducción", "traduire", "tradução",
 *   "traduzione") or, in a long word, as a part of it (German and Dutch compounds: "Regalpreise",
 *   "zonnepanelen"). Entries in scripts written without spaces (Chinese, Japanese, Korean, Thai)
 *   are matched anywhere in a run of that script. An entry ending "$" is matched only whole.
 *
 * Written from the vocabulary of the work itself (what the work is called, in the languages
 * agents write in), never from a judged request: a word here must name the concept for anyone.
 */

export type Family =
  | "language"
  | "imaging"
  | "inspection"
  | "retail"
  | "errands"
  | "research"
  | "data"
  | "software"
  | "design"
  | "fieldwork"
  | "events"
  | "legal"
  | "finance"
  | "it"
  | "audio"
  | "sourcing"

export interface Concept {
  readonly concept: string
  readonly family?: Family
  /**
   * A kind of work (what is done: translation, inspection, repair), as against what work is
   * about or what comes of it (solar panels, a video, a document). A task that names a kind of
   * work asks for someone who does it (`doesTheWork`, src/domain/matching_rules.ts).
   * "shared": work done in several disciplines (research, surveys, interviews, audits,
   * inspections, testing, verification, picking up and carrying things): whoever does it does the work asked, but named alone it asks for no one
   * discipline's work ("Interview store managers", "Survey e-scooter parking": the store
   * auditor, the fleet auditor).
   */
  readonly work?: true | "shared"
  /** Where such work happens, when the wording says no more: on site, or online. */
  readonly mode?: "physical" | "digital"
  readonly en: string
  readonly stems?: string
}

export const concepts: ReadonlyArray<Concept> = [
  // Language work.
  {
    concept: "translation",
    work: true,
    family: "language",
    mode: "digital",
    en: "translation translations translate translated translating translator translators",
    stems:
      "переклад перекла תרגום תרגם מתרגם μεταφρ μεταφρασ แปล ubersetz tradu vertal tlumacz tłumacz ceviri çeviri terjemah перевод перевест переведит ترجم مترجم$ अनुवाद 翻訳 翻译 翻譯 번역"
  },
  {
    concept: "interpretation",
    work: true,
    family: "language",
    en: "interpretation interpret interpreter interpreters interpreting interpreted",
    stems:
      "перекладач תורגמן מתורגמן διερμην ล่าม dolmetsch interpret interprete intérprete tolk tercuman tercüman переводчик مترجم-فوري दुभाषि 通訳 口译 口譯 통역"
  },
  {
    // "Local", "locally": where someone is, not localization (whose English stem it is).
    concept: "local",
    en: "local locals locally"
  },
  {
    concept: "localization",
    work: true,
    family: "language",
    mode: "digital",
    en: "localization localize localized localizing localise localised localisation l10n",
    stems: "lokalis lokaliz localiz localis ローカライズ 本地化 현지화"
  },
  {
    concept: "transcription",
    work: true,
    family: "language",
    mode: "digital",
    en: "transcription transcribe transcribed transcribing transcriber transcript transcripts dictation dictated",
    stems:
      "תמלול ถอดเสียง ถอดความ απομαγνητοφων transkri transcri transcrib transkrypc transkrip abtipp diktat dictad dictée dictee dettat транскри расшифр تفريغ نسخ ट्रांसक्रिप्शन 文字起こし 書き起こし 转录 轉錄 听写 받아쓰기 전사"
  },
  {
    concept: "captioning",
    work: true,
    family: "language",
    mode: "digital",
    en: "caption captions captioning captioned subtitle subtitles subtitling subtitled srt webvtt vtt",
    stems:
      "untertit sous-titr soustitr subtitul sottotitol legend ondertitel napis altyazi altyazı субтитр ترجمة-مرئية उपशीर्षक कैप्शन 字幕 자막"
  },
  {
    concept: "proofreading",
    work: true,
    family: "language",
    mode: "digital",
    en: "proofread proofreading proofreader copyedit copyediting copyeditor copy-edit grammar typo typos spelling misspelling misspellings",
    stems:
      "korrektur lektorat lektor relectur relire$ correcteur corrector correttor redactie korekt редактур корректур تدقيق प्रूफ 校正 校对 校對 교정"
  },
  {
    concept: "editing",
    work: true,
    family: "language",
    mode: "digital",
    en: "edit editing edited editor",
    stems: "bearbeit redig edicion edición edicao edição"
  },
  {
    concept: "writing",
    family: "language",
    en: "writing written writer tutorial tutorials ghostwrite ghostwriting copywriting",
    stems: "schreib redact rédig escrib escrev scriv schrijv napisa написа كتابة लेखन 執筆 撰写 작성"
  },
  {
    concept: "documentation",
    work: true,
    family: "software",
    mode: "digital",
    en: "documentation docs manual manuals handbook",
    stems:
      "dokumentation documentac documentaç documentazion handleiding instrukcj bedienungsanleitung anleitung manuel manuale документац توثيق दस्तावेजीकरण マニュアル 文档 문서화"
  },
  {
    concept: "voice",
    work: true,
    family: "audio",
    mode: "digital",
    en: "voice voiceover voice-over narration narrator narrate dubbing",
    stems:
      "sprecher sprachaufnahm vertoner locución locucion locutor doublage narrazion doppiagg seslendir озвуч تعليق-صوتي वॉयस ナレーション 配音 나레이션 성우"
  },
  {
    concept: "language",
    family: "language",
    en: "language languages",
    stems: "sprach langue idioma lingua taal język jezyk dil$ язык لغة भाषा 言語 语言 언어"
  },

  // Where the work happens, said in so many words, and files: what a task sends back as a file
  // is digital work, unless the wording also sends someone somewhere (then hybrid).
  {
    concept: "on-site",
    mode: "physical",
    en: "on-site onsite in-person face-to-face",
    stems:
      "vor-ort persönlich personlich sur-place en-personne en-persona presencial presencialmente in-loco di-persona ter-plaatse persoonlijk na-miejscu osobiście osobiscie yerinde на-месте лично شخصيا ميداني व्यक्तिगत 現地 対面 现场 現場 当面 현장 대면 langsung"
  },
  {
    concept: "online",
    mode: "digital",
    en: "online virtual virtually",
    stems:
      "fernarbeit à-distance a-distance a-distancia remoto remota remotamente a-distanza op-afstand zdaln uzaktan удалённ удаленн дистанционн عن-بعد اونلاين ऑनलाइन リモート オンライン 远程 遠端 在线 線上 원격 온라인 daring jarak-jauh videocall videollamada videochamada visio$ visioconf videogesprek wideorozmow"
  },
  {
    concept: "file",
    mode: "digital",
    en: "pdf pdfs json csv docx xlsx srt wav mp3 svg png jpeg jpg",
    stems: "datei fichier archivo arquivo bestand plik dosya файл ملف फ़ाइल फाइल ファイル 檔案 파일"
  },

  // Languages, by name: a translator's pair and an agent's language meet in any language.
  {
    concept: "lang-japanese",
    en: "japanese",
    stems:
      "japanisch japonais japonés japones japonês japones giappones japans japońsk japonsk japonca японск يابان जापानी 日本語 日语 日文 일본어 японськ"
  },
  {
    concept: "lang-english",
    en: "english british american",
    stems:
      "englisch anglais inglés ingles inglês ingles ingles engels angielsk ingilizce английск إنجليز अंग्रेज़ी अंग्रेजी 英語 英语 英文 영어 inggris англійськ"
  },
  {
    concept: "lang-spanish",
    en: "spanish castilian",
    stems:
      "spanisch espagnol español espanol espanhol spagnol spaans hiszpańsk hiszpansk ispanyolca испанск إسبان स्पेनिश 西班牙 スペイン語 스페인어 іспанськ"
  },
  {
    concept: "lang-french",
    en: "french",
    stems:
      "französisch franzosisch français francais francés frances francês francese frans francusk fransızca fransizca французск فرنس फ़्रेंच फ्रेंच 法语 法語 フランス語 프랑스어 французьк"
  },
  {
    concept: "lang-arabic",
    en: "arabic darija",
    stems: "arabisch arabe árabe arabo arabsk arapça arapca арабск عرب अरबी 阿拉伯 アラビア語 아랍어 арабськ"
  },
  {
    concept: "lang-german",
    en: "german",
    stems:
      "deutsch allemand alemán aleman alemão alemao tedesc duits niemieck almanca немецк ألمان जर्मन 德语 德語 ドイツ語 독일어 німецьк"
  },
  {
    concept: "lang-portuguese",
    en: "portuguese brazilian",
    stems:
      "portugiesisch portugais portugués portugues português portoghes portugees portugalsk portekizce португальск برتغال पुर्तगाली 葡萄牙 ポルトガル語 포르투갈어 португальськ"
  },
  {
    concept: "lang-turkish",
    en: "turkish",
    stems:
      "türkisch turkisch turc$ turco turque turks turecki türkçe turkce турецк ترك तुर्की 土耳其 トルコ語 터키어 турецьк"
  },
  {
    concept: "lang-mandarin",
    en: "mandarin chinese",
    stems:
      "chinesisch chinois chino chinês chines cinese chinees chińsk chinsk çince cince китайск صين चीनी 中文 汉语 漢語 普通话 中国語 중국어 китайськ"
  },
  {
    concept: "lang-korean",
    en: "korean",
    stems:
      "koreanisch coréen coreen coreano koreaans koreańsk korece корейск كوري कोरियाई 韩语 韓語 韓国語 한국어 корейськ"
  },
  {
    concept: "lang-quechua",
    en: "quechua",
    stems: "quechua kichwa кечуа"
  },
  {
    concept: "lang-polish",
    en: "polish",
    stems:
      "polnisch polonais polaco polacco pools polsk lehçe lehce польск بولند पोलिश 波兰语 ポーランド語 폴란드어 польськ"
  },
  {
    concept: "lang-dutch",
    en: "dutch",
    stems:
      "niederländisch niederlandisch néerlandais neerlandais neerlandés neerlandes holandês holandes olandes nederlands niderlandzk hollandaca нидерландск هولند डच 荷兰语 オランダ語 네덜란드어 нідерландськ"
  },
  {
    concept: "lang-swedish",
    en: "swedish",
    stems:
      "schwedisch suédois suedois sueco svedese zweeds szwedzk isveççe isvecce шведск سويد स्वीडिश 瑞典语 スウェーデン語 스웨덴어 шведськ"
  },
  {
    concept: "lang-te-reo-maori",
    en: "maori",
    stems: "maori"
  },
  {
    concept: "lang-hindi",
    en: "hindi marathi",
    stems: "hindi हिंदी हिन्दी मराठी 印地语"
  },
  {
    concept: "lang-amharic",
    en: "amharic oromo",
    stems: "amharisch amharique amárico amarico አማርኛ"
  },
  {
    concept: "lang-vietnamese",
    en: "vietnamese",
    stems:
      "vietnamesisch vietnamien vietnamita vietnamees wietnamsk vietnamca вьетнамск tiếng-việt tieng-viet 越南语 ベトナム語 베트남어"
  },
  {
    concept: "lang-indonesian",
    en: "indonesian malay bahasa",
    stems:
      "indonesisch indonésien indonesien indonesio indonésio indonesiano endonezce индонезийск bahasa-indonesia melayu"
  },
  {
    concept: "lang-greek",
    en: "greek",
    stems: "griechisch grec$ grecque griego grego greco grieks grecki yunanca греческ يونان ελληνικ грецьк"
  },
  {
    concept: "lang-romanian",
    en: "romanian",
    stems:
      "rumänisch rumanisch roumain rumano romeno rumeno roemeens rumuńsk rumunsk romence румынск română romana румунськ"
  },
  {
    concept: "lang-norwegian",
    en: "norwegian",
    stems: "norwegisch norvégien norvegien noruego norueguês norvegese noors norwesk norveççe норвежск norsk норвезьк"
  },
  {
    concept: "lang-urdu",
    en: "urdu",
    stems: "urdu اردو उर्दू"
  },
  {
    concept: "lang-bengali",
    en: "bengali bangla",
    stems: "bengalisch bengalí bengali বাংলা बंगाली"
  },
  {
    concept: "lang-hausa",
    en: "hausa",
    stems: "hausa"
  },
  {
    concept: "lang-igbo",
    en: "igbo",
    stems: "igbo"
  },
  {
    concept: "lang-chichewa",
    en: "chichewa nyanja",
    stems: "chichewa"
  },

  // Imaging.
  {
    concept: "photography",
    work: true,
    family: "imaging",
    en: "photo photos photograph photographs photographer photographers photography photographing photographic picture pictures pic pics snapshot snap shoot shoots shot shots packshot packshots",
    stems:
      "צילום צלם ถ่ายภาพ ช่างภาพ ถ่ายรูป foto fotograf photograph immagin imagen imagem zdjęc zdjec fotoğraf фото сним تصوير صور फोटो तस्वीर 写真 撮影 照片 拍摄 摄影 拍照 사진 촬영 φωτογραφ"
  },
  {
    concept: "retouching",
    work: true,
    family: "imaging",
    mode: "digital",
    en: "retouch retouching retouched retoucher cutout clipping",
    stems: "retusch retouch retoque ritocc scontorn retus rötuş rotus ретуш रीटच 修图 修圖 レタッチ 보정"
  },
  {
    // What retouching is often about, not retouching itself: "background music" is no photo work.
    concept: "background",
    family: "imaging",
    en: "background backgrounds",
    stems: "hintergrund arrière-plan arriere-plan fondo fundo achtergrond tło tlo arka-plan фон خلفية 背景"
  },
  {
    concept: "illustration",
    work: true,
    family: "design",
    mode: "digital",
    en: "illustration illustrations illustrate illustrator",
    stems:
      "illustr ilustr zeichn dessin dibuj disegn desenh tekening rysun çizim cizim иллюстр رسم चित्र イラスト 插画 插圖 일러스트"
  },
  {
    concept: "icon",
    family: "design",
    mode: "digital",
    en: "icon icons iconography svg vector vectors",
    stems: "ikon icône icone icono ícone wektor vektor vector vettorial иконк أيقون आइकन アイコン 图标 아이콘"
  },
  {
    concept: "scouting",
    work: true,
    family: "imaging",
    mode: "physical",
    en: "scout scouting scouts",
    stems: "locacion locación location-scout repérag reperag sopraluogh motivsuch"
  },
  {
    concept: "film",
    family: "imaging",
    en: "film filming films movie shooting",
    stems: "dreh rodaje tournag ripres filmag filmow çekim cekim съёмк съемк تصوير-فيلم ロケ 拍片 촬영지"
  },

  // Inspection and checks on site.
  {
    concept: "inspection",
    work: "shared",
    family: "inspection",
    mode: "physical",
    en: "inspection inspections inspect inspected inspector inspectors inspecting",
    stems:
      "בדיקה בודק επιθεωρ ตรวจสอบ перевірк inspek inspect inspecc inspeç inspez prüfung prufung prüf begutacht controll contrôl control keuring inspectie kontrol przeglad przegląd denetim muayene осмотр فحص تفتيش निरीक्षण 点検 検査 检查 檢查 점검"
  },
  {
    concept: "audit",
    work: "shared",
    family: "inspection",
    en: "audit audits auditing auditor",
    stems: "audit auditor auditoría auditoria denetim аудит تدقيق-ميداني ऑडिट 監査 审核 審核 감사"
  },
  {
    concept: "vehicle",
    family: "inspection",
    en: "vehicle vehicles car cars automobile truck trucks pickup-truck",
    stems:
      "fahrzeug auto$ autos voiture véhicul vehicul coche coches carro carros macchina auto's samochod samochód araç arac автомоб машин سيارة गाड़ी कार 車 车 汽车 자동차"
  },
  {
    concept: "electrical",
    family: "inspection",
    mode: "physical",
    en: "electrical electric electrician electricity wiring socket sockets appliance appliances",
    stems: "elektr électri electri eléctri eletric elettric elektrik электр كهرب बिजली 電気 电气 電氣 电工 전기"
  },
  {
    concept: "solar",
    family: "inspection",
    mode: "physical",
    en: "solar pv photovoltaic",
    stems: "solar zonnepane zonne photovolt fotovolt güneş gunes солнеч شمسي सौर 太陽光 太阳能 태양광"
  },
  {
    concept: "panel",
    en: "panel panels array arrays",
    stems: "paneel panel panneau pannell painel modul"
  },
  {
    concept: "drone",
    family: "inspection",
    mode: "physical",
    en: "drone drones uav",
    stems: "drohn drone dron дрон طائرة-مسيرة ड्रोन ドローン 无人机 無人機 드론"
  },
  {
    concept: "thermal",
    en: "thermal infrared thermography",
    stems: "wärmebild warmebild thermi térmic termic termogra тепловиз حراري 赤外線 热成像 열화상"
  },
  {
    concept: "property",
    family: "inspection",
    en: "apartment apartments flat flats house houses property properties rental rentals room rooms",
    stems:
      "wohnung immobil appartement logement departamento apartamento piso$ casa$ appartamento woning mieszkan daire квартир شقة مكان-سكن मकान फ्लैट アパート 公寓 房屋 아파트"
  },
  {
    concept: "meter",
    family: "inspection",
    mode: "physical",
    en: "meter meters",
    stems:
      "zähler zahler compteur contador contatore medidor meterstand licznik sayaç sayac счётчик счетчик عداد मीटर メーター 电表 계량기"
  },
  {
    concept: "accessibility",
    family: "inspection",
    en: "accessibility accessible a11y wheelchair step-free barrier barriers wcag",
    stems:
      "barrierefrei rollstuhl accessib accesib acessib fauteuil-roulant silla-de-ruedas cadeira-de-rodas toegankelijk rolstoel dostępn dostepn erişileb erisileb доступн إمكانية-الوصول सुलभता アクセシビリティ 无障碍 無障礙 접근성"
  },
  {
    concept: "screen-reader",
    family: "software",
    mode: "digital",
    en: "screen-reader screenreader nvda voiceover-testing rgaa",
    stems: "screenreader bildschirmleser lecteur-d-ecran lector-de-pantalla"
  },
  {
    concept: "venue",
    family: "events",
    mode: "physical",
    en: "venue venues restaurant restaurants hotel hotels theatre theater cinema",
    stems:
      "veranstaltungsort restaurant restaurante ristorante salle sala$ theater théâtre teatro lokal mekan ресторан مطعم रेस्तरां レストラン 餐厅 餐廳 식당"
  },

  // Retail.
  {
    concept: "store",
    family: "retail",
    en: "store stores shop shops supermarket supermarkets retail retailer grocery groceries outlet outlets boutique boutiques",
    stems:
      "geschäft geschaft laden$ supermarkt supermarch supermercad tienda tiendas loja lojas negozi winkel sklep mağaza magaza магазин супермаркет متجر سوبرماركت दुकान スーパー 店舗 超市 商店 마트 매장"
  },
  {
    concept: "price",
    family: "retail",
    en: "price prices pricing",
    stems: "preis prix precio preço preco prezz prijs cen fiyat цен سعر أسعار कीमत दाम 価格 价格 價格 가격"
  },
  {
    concept: "shelf",
    family: "retail",
    mode: "physical",
    en: "shelf shelves shelf-share planogram planograms facings",
    stems:
      "regal rayon étagère etagere linéaire lineaire estante lineal scaffal schap półk polk raf$ rafl полк планограм planogram رف 棚 货架 진열"
  },
  {
    concept: "mystery-shopping",
    work: true,
    family: "retail",
    mode: "physical",
    en: "mystery-shopping mystery-shopper mystery secret-shopper secret-shopping",
    stems:
      "testkauf client-myster cliente-misterio cliente-oculto cliente-miste gizli-müşteri gizli-musteri тайный-покупатель متسوق-خفي ミステリーショッパー 神秘顾客 미스터리"
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
    en: "e-commerce ecommerce online-shop marketplace marketplaces seller sellers storefront listing listings sku skus",
    stems:
      "onlineshop webshop boutique-en-ligne tienda-online loja-online negozio-online sklep-internet verkäufer verkaufer vendeur vendedor venditor verkoper sprzedaw satıcı satici продав بائع विक्रेता 卖家 販売者 판매자"
  },
  {
    concept: "authenticity",
    family: "retail",
    en: "authentic authenticity counterfeit fake-goods genuine",
    stems: "echtheit authenticit autenticid autenticid keaslian asli$ orijinal подлинн أصالة प्रामाणिक 真贋 真伪 진품"
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
    stems: "kauf achat achet compra acquist koop zakup satın satin покуп شراء खरीद 購入 购买 구매 beli$ membeli"
  },

  // Errands and delivery.
  {
    concept: "courier",
    work: "shared",
    family: "errands",
    mode: "physical",
    en: "courier couriers couriered pickup pick messenger carriage carry dropoff drop-off parcel parcels package packages envelope",
    stems:
      "שליח кур'єр кур’єр ταχυμεταφορ κουριερ ส่งพัสดุ พัสดุ kurier paket coursier colis mensajer paquet corriere pacco encomenda koerier pakket paczk kurye paket$ курьер посылк пакет مندوب طرد कूरियर पार्सल 宅配 快递 快遞 配送员 택배 kurir paket"
  },
  {
    // Handing something over, which every deliverable is too ("deliver a CSV", "48-hour edited
    // delivery"): said of many kinds of work, so it asks for none.
    concept: "delivery",
    family: "errands",
    en: "delivery deliveries deliver delivered delivering",
    stems:
      "משלוח доставк ส่งเอกสาร zustell liefer livr entreg envío envio consegn entregad bezorg przesył przesyl teslim достав توصيل डिलीवरी 配達 配送 배달 antar"
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
    en: "government municipal rto registry ministry",
    stems:
      "behörde behorde amt$ ämter mairie préfecture prefecture administration administrac administraç gemeente urząd urzad belediye ведомств администрац حكومي بلدية सरकारी नगर कार्यालय 役所 政府 관공서"
  },
  {
    concept: "document",
    en: "document documents paper papers paperwork certificate certificates",
    stems:
      "dokument unterlag urkunde document documento documenti belge документ справк وثيق مستند दस्तावेज़ दस्तावेज प्रमाणपत्र 書類 文件 证书 서류"
  },
  {
    concept: "submission",
    family: "errands",
    en: "submit submission submitting lodge lodging",
    stems:
      "einreich abgeb déposer deposer dépôt depot presentar entregar-document consegnare indienen złożyć zlozyc teslim-et подать подач تقديم जमा 提出 提交 제출"
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
    en: "notary notarize notarized notarization notarial notarizing notarise notarised notarisation witnessing witness commissioner",
    stems: "notar notaire notari notário notario notaio noter нотари موثق كاتب-عدل नोटरी 公証 公证 公證 공증 beglaubig"
  },

  // Research and checking.
  {
    concept: "research",
    work: "shared",
    family: "research",
    mode: "digital",
    en: "research researcher researching",
    stems:
      "recherch recherche investigac investigaç pesquis ricerc onderzoek badan araştır arastir исследован بحث शोध अनुसंधान 調査 调研 研究 조사 리서치"
  },
  {
    concept: "ux-research",
    work: true,
    family: "research",
    en: "ux user-research usability diary-study diary",
    stems:
      "usability usabilid utilisabilit ergonomie nutzerforschung nutzertest nutzerinterview benutzer kullanılabilir kullanilabilir юзабилити قابلية-الاستخدام उपयोगिता ユーザビリティ 可用性 사용성"
  },
  {
    concept: "user",
    family: "research",
    en: "user users participant participants",
    stems:
      "nutzer benutzer teilnehm utilisateur usuario usuari utent gebruiker użytkown uzytkown kullanıcı kullanici пользовател مستخدم उपयोगकर्ता ユーザー 用户 用戶 사용자"
  },
  {
    concept: "interview",
    work: "shared",
    family: "research",
    en: "interview interviews interviewing interviewer",
    stems:
      "interview entrevist entretien intervist wywiad görüşme gorusme mülakat интервью مقابل साक्षात्कार インタビュー 访谈 訪談 采访 인터뷰"
  },
  {
    concept: "survey",
    work: "shared",
    family: "fieldwork",
    en: "survey surveys surveyor surveying enumeration enumerator enumerators poll questionnaire questionnaires census",
    stems:
      "umfrag befragung erhebung fragebog sondage enquête enquete encuesta cuestionari questionári questionari pesquisa-de-campo sondagg indagin enquête vragenlijst ankiet anket опрос анкет استبيان مسح सर्वेक्षण アンケート 调查 調查 问卷 설문"
  },
  {
    concept: "market-research",
    work: true,
    family: "research",
    mode: "digital",
    en: "market-sizing desk-research market-analysis",
    stems:
      "marktanalys marktforsch marktgröß marktgroß étude-de-marché etude-de-marche estudio-de-mercado análisis-de-mercado pesquisa-de-mercado ricerca-di-mercato marktonderzoek analiza-rynku pazar-araştırma маркетинг анализ-рынка أبحاث-السوق बाजार 市場調査 市场调研 市场规模 시장조사"
  },
  {
    concept: "market",
    family: "research",
    en: "market markets sizing",
    stems: "markt marché marche mercad mercat rynk pazar рын سوق बाजार 市場 市场 시장"
  },
  {
    // What a fact-check is about, and what an insurance claim or an advert says: not the work.
    concept: "claims",
    family: "research",
    en: "fact facts claim claims"
  },
  {
    concept: "fact-checking",
    work: true,
    family: "research",
    mode: "digital",
    en: "fact-check fact-checking factcheck factchecking debunk",
    stems:
      "faktencheck faktenprüf faktenpruf vérification-des-faits verification-des-faits fact-check verificación-de-datos verificacion-de-datos checagem verifica-dei-fatti feitencheck sprawdzanie-fakt fakt doğrulama dogrulama проверка-факт факт تحقق-من-الحقائق तथ्य ファクトチェック 事实核查 팩트체크"
  },
  {
    concept: "news",
    family: "research",
    en: "news article articles press journalism",
    stems:
      "nachricht artikel presse article artículo articulo artigo articol nieuws prasow haber новост стать خبر مقال समाचार लेख 記事 新闻 新聞 기사"
  },
  {
    concept: "reverse-image",
    family: "research",
    mode: "digital",
    en: "reverse-image provenance",
    stems: "rückwärtsbild bildersuche"
  },
  {
    concept: "legal-research",
    work: true,
    family: "legal",
    mode: "digital",
    en: "case-law caselaw jurisprudence statute statutes",
    stems: "jurisprud jurisprudên 判例 판례"
  },
  {
    // The law a task is about ("legal documents", "a lawyer's office"): not legal research.
    concept: "law",
    family: "legal",
    en: "legal law laws lawyer solicitor",
    stems:
      "recht juristi juridi jurídic direito derecho diritto droit$ legal prawn hukuk прав юрид قانون قانوني कानून 法律 법률"
  },
  {
    concept: "legal-advice",
    family: "legal",
    en: "advice counsel representation",
    stems:
      "rechtsberat beratung conseil consejo asesor consulen advies porad danışman danisman консульт استشار सलाह 相談 咨询 자문"
  },
  {
    concept: "court",
    family: "legal",
    en: "court courts tribunal filing",
    stems: "gericht tribunal corte tribunale rechtbank sąd$ sad$ mahkeme суд محكمة अदालत 裁判所 法院 법원"
  },
  {
    concept: "company-registry",
    family: "legal",
    en: "registration registry company companies",
    stems:
      "handelsregister registre registro firm empresa société societe società bedrijf spółk spolk şirket sirket компан شركة कंपनी 会社 公司 회사"
  },
  {
    concept: "search-rating",
    family: "data",
    mode: "digital",
    en: "relevance rating ratings rater search-results",
    stems:
      "relevanz relevance relevancia relevância rilevanz relevantie trafno alaka uygun релевант ملاءمة प्रासंगिकता 関連性 相关性 관련성 suchergebnis résultats-de-recherche resultados-de-búsqueda"
  },

  // Data.
  {
    // To carry out work is to do it, whatever it is: not to carry something, as a courier does.
    concept: "carry-out",
    en: "carry-out carrying-out carried-out carries-out"
  },
  {
    // "Type", "key": a kind and what is key, said of anything; typing and keying in are data entry.
    concept: "kind",
    en: "type types key keys"
  },
  {
    concept: "data-entry",
    work: true,
    family: "data",
    mode: "digital",
    en: "data-entry typing type-up type-out key-in keying digitise digitize digitising digitizing digitisation digitization",
    stems:
      "datenerfass dateneingab abtipp digitalis digitaliz saisie entrada-de-datos entrada-de-dados inserimento-dati data-invoer wprowadzan veri-giriş veri-giris ввод-данн إدخال-بيانات डेटा-एंट्री データ入力 数据录入 데이터-입력"
  },
  {
    concept: "spreadsheet",
    family: "data",
    mode: "digital",
    en: "spreadsheet spreadsheets excel sheets csv table",
    stems:
      "tabelle excel tableur feuille-de-calcul hoja-de-cálculo hoja-de-calculo hojas-de-cálculo planilha foglio-di-calcolo spreadsheet arkusz elektronik-tablo таблиц جدول स्प्रेडशीट 表計算 电子表格 스프레드시트"
  },
  {
    concept: "deduplication",
    work: true,
    family: "data",
    mode: "digital",
    en: "deduplicate deduplication dedupe duplicates normalise normalize",
    stems: "duplikat dédoublonn dedoublonn dedup дубл 重複 去重 중복"
  },
  {
    // Cleaning data, a transcript's "clean read", a flat: said of many kinds of work.
    concept: "cleaning",
    family: "data",
    en: "cleaning clean cleanup",
    stems: "bereinig nettoy limpi limpez pulizi opschon czyszcz temizle очистк تنظيف सफाई"
  },
  {
    // A label on a shelf or a parcel: what labelling is about, not the work.
    concept: "label",
    family: "data",
    en: "label labels"
  },
  {
    concept: "labelling",
    work: true,
    family: "data",
    mode: "digital",
    en: "label labelling labeling labels annotation annotations annotate annotating annotator tagging bounding-box bounding-boxes polygon polygons segmentation",
    stems:
      "annotier beschrift label annot etiquet etichett etiket oznacz işaretle isaretle размет аннотац توسيم تعليق-توضيحي एनोटेशन लेबल アノテーション ラベル付け 标注 標註 标记 边界框 라벨링 어노테이션"
  },
  {
    concept: "moderation",
    work: true,
    family: "data",
    mode: "digital",
    en: "moderation moderate moderator moderating flagged",
    stems:
      "moderat modéra moderac moderaç moderazion moderasyon moderacj модерац إشراف الإشراف मॉडरेशन モデレーション 审核内容 内容审核 모더레이션 denetle"
  },
  {
    concept: "content",
    family: "data",
    en: "content comment comments post posts",
    stems:
      "inhalt kommentar contenu comentari conteúdo conteudo contenut commento inhoud reactie treść tresc komentarz içerik icerik yorum контент комментар محتوى تعليقات सामग्री टिप्पणी コンテンツ 内容 评论 콘텐츠 댓글"
  },
  {
    // An account is anyone's (a user's, an owner's); accounting and accountants keep books.
    concept: "account",
    family: "finance",
    en: "account accounts"
  },
  {
    concept: "bookkeeping",
    work: true,
    family: "finance",
    mode: "digital",
    en: "bookkeeping bookkeeper accounting accountant ledger",
    stems:
      "buchhalt buchführ buchfuhr comptab contabil boekhoud księgow ksiegow muhasebe бухгалтер محاسب बहीखाता लेखा 記帳 会计 會計 簿記 회계 장부"
  },
  {
    concept: "reconciliation",
    work: true,
    family: "finance",
    mode: "digital",
    en: "reconcile reconciliation reconciling",
    stems:
      "abstimm kontenabstimm abgleich rapprochement conciliac conciliaç riconcili afstemm uzgadnian mutabakat сверк تسوية मिलान 照合 对账 對帳 대사"
  },
  {
    concept: "bank",
    family: "finance",
    en: "bank banking statement statements",
    stems: "bank$ banque banco banca banka банк بنك बैंक 銀行 银行 은행"
  },
  {
    concept: "tax",
    family: "finance",
    en: "tax taxes",
    stems: "steuer impôt impot impuesto imposto tasse belasting podatek vergi налог ضريب 税 세금 확정신고 確定申告"
  },
  {
    concept: "invoice",
    family: "finance",
    en: "invoice invoices payable",
    stems: "rechnung factur fattur nota-fiscal factuur faktur fatura счет-фактур فاتورة चालान 請求書 发票 發票 송장"
  },

  // Software and IT.
  {
    concept: "software-testing",
    work: true,
    family: "software",
    mode: "digital",
    en: "qa regression bug bugs bug-report bug-reports defect defects",
    stems:
      "regressionst regresión regresion regressão regressione regressietest fehlerbericht bogue rapport-de-bug bugreport błęd błąd hata тестирован баг اختبار-البرمجيات बग バグ 回归测试 버그"
  },
  {
    concept: "testing",
    work: "shared",
    family: "software",
    en: "testing test tests tester tested",
    stems:
      "test$ tests$ testen tester teste testa prueba probar testar collaud тест اختبار परीक्षण テスト 测试 測試 테스트"
  },
  {
    concept: "app",
    family: "software",
    mode: "digital",
    en: "app apps application android ios mobile-app software website websites web",
    stems:
      "anwendung applikation application aplicación aplicacion aplicativo aplicação applicazion aplikac uygulama приложени تطبيق ऐप アプリ 应用 應用 앱 webseite website sitio-web site-web sito-web strona-intern web-sitesi сайт موقع वेबसाइट ウェブサイト 网站 網站 웹사이트"
  },
  {
    concept: "api",
    family: "software",
    mode: "digital",
    en: "api apis endpoint endpoints sdk rest markdown",
    stems: "schnittstell"
  },
  {
    concept: "code",
    family: "software",
    mode: "digital",
    en: "coding programming programmer developer development compiler",
    stems:
      "programmier entwickl programm développ develop desarroll programaç programación programacion sviluppo ontwikkel kod$ programowan yazılım yazilim код программ برمج तकनीकी कोड プログラ 编程 程序 开发 코딩 개발"
  },
  {
    concept: "security",
    family: "software",
    en: "penetration pentest pentesting security exploit exploitation hacking",
    stems:
      "penetrationstest sicherheit sécurité securite seguridad segurança sicurezza beveiliging bezpieczeń güvenlik guvenlik безопасн пентест أمن सुरक्षा セキュリティ 安全测试 보안"
  },
  {
    concept: "it-support",
    work: true,
    family: "it",
    en: "it-support troubleshoot troubleshooting helpdesk tech-support",
    stems:
      "it-support fehlerbeheb dépann depann soporte-técnico soporte-tecnico suporte-técnico assistenza-tecnica storing wsparcie-techn teknik-destek техподдерж دعم-فني तकनीकी-सहायता トラブルシュー 技术支持 기술지원"
  },
  {
    concept: "network",
    family: "it",
    en: "network networks networking router routers wi-fi wifi lan connection connectivity internet",
    stems:
      "netzwerk netz$ réseau reseau redes rede$ rete$ netwerk sieć siec ağ$ internet сеть сети شبكة नेटवर्क ネットワーク 网络 網路 네트워크 jaringan wi-fi wifi routeur enrutador роутер"
  },
  {
    concept: "computer",
    family: "it",
    en: "laptop laptops computer computers pc device devices printer",
    stems:
      "rechner computer ordinateur ordenador computador portátil portatil bilgisayar компьютер ноутбук حاسوب كمبيوتر कंप्यूटर パソコン 电脑 電腦 컴퓨터 komputer laptop"
  },
  {
    concept: "mobile-network",
    family: "fieldwork",
    mode: "physical",
    en: "4g 5g lte coverage signal drive-test drive-tests speed latency operator operators",
    stems:
      "netzabdeck mobilfunk couverture-réseau couverture-reseau couverture cobertura copertura dekking zasięg zasieg kapsama покрыт تغطية कवरेज 電波 覆盖 커버리지"
  },
  {
    concept: "hardware",
    family: "software",
    mode: "physical",
    en: "hardware usb usb-c charger chargers oscilloscope bench prototype prototypes power-draw",
    stems:
      "ladegerät ladegerat chargeur cargador carregador caricator oplader ładowark ladowark şarj sarj зарядн شاحن चार्जर 充電器 充电器 충전기 prototyp oszillos oscillos osciloscop"
  },

  // Field work.
  {
    concept: "verification",
    work: "shared",
    family: "fieldwork",
    en: "verification verify verified verifying confirm confirmation check-that exists existence",
    stems:
      "verifi vérifi überprüf uberpruf überprü bestätig bestatig comprob confirm verific controleer weryfik doğrula dogrula провер подтвержд تحقق تأكد सत्यापन 確認 确认 验证 확인 cek$ periksa"
  },
  {
    concept: "address",
    family: "fieldwork",
    en: "address addresses signage signboard signboards sign-board",
    stems:
      "adresse dirección direccion endereço endereco indirizz adres adresi адрес عنوان पता 住所 地址 주소 schild enseigne letrero insegna"
  },
  {
    concept: "geotag",
    family: "fieldwork",
    en: "gps geotagged geotag geotagging coordinates gpx",
    stems:
      "gps geotag géolocalis geolocaliz coordonn coordenad coordinat współrzęd koordinat координат إحداثيات निर्देशांक 座標 坐标 좌표"
  },
  {
    concept: "water-sampling",
    family: "fieldwork",
    mode: "physical",
    en: "water",
    stems: "wasser eau$ agua$ água acqua water woda su-numune вода ماء مياه पानी 水样 水質 水质 vann"
  },
  {
    concept: "sample",
    family: "fieldwork",
    en: "sample samples sampling",
    stems:
      "probe proben probenahm échantillon echantillon muestra campion amostra monster próbk probk numune проб عينة नमूना サンプル 样本 采样 샘플 prøve prove"
  },
  {
    concept: "household",
    family: "fieldwork",
    mode: "physical",
    en: "household households door-to-door",
    stems:
      "haushalt ménage menage hogar hogares domicíli domicili famíli huishoud gospodarstw hane домохозяйств أسر घर-घर 世帯 家庭 가구"
  },
  {
    concept: "repair",
    work: true,
    family: "fieldwork",
    en: "repair repairs mend",
    stems: "reparat répar repar ripara herstel napraw tamir ремонт إصلاح मरम्मत 修理 维修 修理 수리"
  },
  {
    concept: "agriculture",
    family: "fieldwork",
    en: "crop crops farm farms farmer farmers plot plots agriculture agricultural maize harvest smallholder",
    stems:
      "landwirt ernte acker agricol agrícol agricult cultivo culture parcell parcel lavoura raccolt boerderij gewas rolnict uprawa tarla tarım tarim çiftç сельск урожа поле زراع محاصيل مزرع खेत फसल 農 农 作物 농업 작물"
  },
  {
    concept: "pesticide",
    family: "fieldwork",
    en: "pesticide pesticides agrochemical agrochemicals spraying",
    stems: "pestizid pesticid agrochim agroquím pesticyd pestisit пестицид مبيد कीटनाशक 農薬 农药 농약"
  },
  {
    concept: "micromobility",
    family: "fieldwork",
    en: "scooter scooters e-scooter e-scooters escooter bike bikes bicycle bicycles e-bike micromobility fleet",
    stems:
      "roller fahrrad leihrad trottinette vélo velo patinete bicicleta monopattino fiets deelfiets hulajnog rower scooter bisiklet самокат велосипед سكوتر دراجة स्कूटर साइकिल 自転車 キックボード 滑板车 自行车 킥보드 자전거"
  },
  {
    concept: "count",
    en: "count counts counting tally",
    stems: "zähl zahl compt contar conteggi tellen licz sayım подсч गिनती 数える 计数 세다"
  },
  {
    // What research cites, not the sourcing of suppliers ("sources" is not "sourcing").
    concept: "sources",
    family: "research",
    en: "source sources"
  },
  {
    concept: "sourcing",
    work: true,
    family: "sourcing",
    en: "sourcing supplier suppliers vendor vendors vet vetting manufacturer manufacturers",
    stems:
      "lieferant beschaff fournisseur proveedor fornecedor fornitor leverancier dostawc tedarik поставщик مورد आपूर्तिकर्ता サプライヤー 供应商 供應商 공급업체 nhà-cung-cấp nha-cung-cap cung-cap"
  },
  {
    concept: "factory",
    family: "sourcing",
    mode: "physical",
    en: "factory factories manufacturing",
    stems:
      "fabrik werk$ usine fábrica fabrica fabbric fabriek fabryk fabrika завод фабрик مصنع कारखाना 工場 工厂 工廠 공장 nhà-máy nha-may"
  },
  {
    concept: "handyman",
    work: true,
    family: "fieldwork",
    mode: "physical",
    en: "handyman assembly assemble assembled assembling mount mounting install installation flat-pack shelf-mounting put-up hang-up drill drilling repair repairs",
    stems: "montage montier aufbau zusammenbau монтаж сборк تركيب 組み立て 组装 조립"
  },
  {
    // What a handyman assembles or mounts, and what a property report lists.
    concept: "furniture",
    family: "fieldwork",
    mode: "physical",
    en: "furniture tv",
    stems: "möbel mobel meuble mueble móvel movel mobil$ mobili meubel mebl mobilya мебел أثاث फर्नीचर 家具"
  },
  {
    concept: "event",
    family: "events",
    mode: "physical",
    en: "event events conference conferences trade-show expo expos booth booths fair fairs summit",
    stems:
      "messe konferenz tagung veranstalt salon conférence conference congrès feria conferencia evento fiera beurs congres targi konferencj etkinlik fuar konferans конференц выставк مؤتمر معرض सम्मेलन कॉन्फ़्रेंस 展示会 会議 展会 会议 컨퍼런스 박람회"
  },
  {
    concept: "notes",
    family: "events",
    en: "notes note minutes summary",
    stems: "notiz protokoll note notas appunt aantekening notatk заметк ملاحظات नोट्स ノート メモ 笔记 노트"
  },
  {
    concept: "meeting",
    family: "events",
    mode: "physical",
    en: "meeting meetings appointment appointments",
    stems:
      "treffen meeting besprechung termin réunion reunion rendez-vous reunión cita riunion incontro appuntament vergadering afspraak spotkan toplantı toplanti randevu встреч совещ اجتماع موعد बैठक 会議 打ち合わせ 会议 会面 회의 미팅"
  },
  {
    concept: "visit",
    family: "fieldwork",
    mode: "physical",
    en: "visit visits visiting site-visit site-visits walk-around",
    stems:
      "besuch besichtig visite visita bezoek wizyt ziyaret посещ визит زيارة दौरा 訪問 見学 视察 参观 访问 방문 thăm tham$"
  },
  {
    concept: "sign-language",
    family: "language",
    en: "asl sign-language signing deaf",
    stems:
      "gebärdensprach gebardensprach langue-des-signes lengua-de-señas lengua-de-senas lingua-de-sinais lingua-dei-segni gebarentaal język-migowy jezyk-migowy işaret-dili isaret-dili жестов لغة-الإشارة सांकेतिक 手話 手语 수어 señas senas signes sinais"
  },
  {
    concept: "medical",
    family: "language",
    en: "medical clinical doctor doctors patient patients clinic hospital",
    stems:
      "medizin ärztl arztl médic medic clínic clinic klinik medisch medyczn tıbbi tibbi медицин врач طبي طبيب चिकित्सा 医療 医学 医疗 醫療 의료"
  },
  {
    concept: "audio",
    family: "audio",
    en: "audio recording recordings recorded sound podcast",
    stems:
      "audio tonaufnahm enregistr grabación grabacion gravação gravacao registrazion opname nagran kayıt kayit аудио запис تسجيل صوت ऑडियो रिकॉर्डिंग 音声 録音 音频 录音 오디오 녹음"
  },
  {
    concept: "video",
    family: "audio",
    en: "video videos webinar webinars documentary",
    stems: "video vidéo vídeo wideo видео فيديو वीडियो ビデオ 動画 视频 視頻 비디오 영상"
  },
  {
    concept: "product",
    family: "imaging",
    en: "product products goods",
    stems: "produkt produit producto produto prodott product ürün urun товар منتج उत्पाद 商品 製品 产品 제품 barang"
  },
  {
    concept: "studio",
    family: "imaging",
    en: "studio lightbox white-background lifestyle",
    stems: "studio estudio estúdio weiß blanc$ blanco branco bianc biał bial beyaz бел أبيض सफेद 白背景 白底 흰"
  }
]
