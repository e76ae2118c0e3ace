/** Software and IT, field work, and what work is about (the concept layer's data: src/domain/concepts/work.ts says how it is read). */
import type { Concept } from "./concept.ts"

export const softwareAndField: ReadonlyArray<Concept> = [
  // Software and IT.
  {
    concept: "software-testing",
    work: true,
    family: "software",
    mode: "digital",
    en: "qa regression bug bugs bug-report bug-reports defect defects",
    stems:
      "बग$ regressionst regresión regresion regressão regressione regressietest fehlerbericht bogue rapport-de-bug bugreport błęd błąd hata тестирован баг اختبار-البرمجيات बग バグ 回归测试 버그 בדיקות-תוכנ ทดสอบซอฟต์แวร์ тестуванн kiem-thu testování-softwar testovani-softwar regresn"
  },
  {
    concept: "testing",
    work: "shared",
    family: "software",
    en: "testing test tests tester tested",
    stems:
      "परीक्षण test$ tests$ testen tester teste testa prueba probar testar collaud тест اختبار परीक्षण テスト 测试 測試 테스트 pengujian"
  },
  {
    concept: "app",
    family: "software",
    mode: "digital",
    en: "app apps application android ios mobile-app software website websites web",
    stems:
      "एन्ड्रोइड एप$ एपको$ anwendung applikation application aplicación aplicacion aplicativo aplicação applicazion aplikac uygulama приложени تطبيق ऐप アプリ 应用 應用 앱 webseite website sitio-web site-web sito-web strona-intern web-sitesi сайт موقع वेबसाइट ウェブサイト 网站 網站 웹사이트"
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
    includes: ["installation"],
    en: "it-support troubleshoot troubleshooting helpdesk tech-support it-technician it-technicians it-tech it-techs it-specialist it-help it-person it-guy it-admin sysadmin sysadmins computer-technician desktop-support",
    stems:
      "it-support sokongan-it sokongan-teknikal bantuan-it fehlerbeheb dépann depann soporte-técnico soporte-tecnico suporte-técnico assistenza-tecnica storing wsparcie-techn teknik-destek техподдерж دعم-فني तकनीकी-सहायता トラブルシュー 技术支持 기술지원 תמיכה-טכנ τεχνικη-υποστηρ технічна-підтрим техпідтрим suport-tehnic ho-tro-ky msaada-wa-kiufundi"
  },
  {
    concept: "network",
    family: "it",
    en: "network networks networking router routers wi-fi wifi lan connection connectivity internet",
    stems:
      "netzwerk netz$ réseau reseau redes rede$ rete$ netwerk sieć siec ağ$ internet сеть сети شبكة नेटवर्क ネットワーク 网络 網路 네트워크 jaringan wi-fi wifi routeur enrutador роутер penghala רשת δικτυ เครือข่าย เราเตอร์ мереж retea mtandao"
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
    en: "verification verify verified verifying confirm confirmation check-that make-sure exists existence field-agent field-agents field-officer field-verifier ground-truth ground-truthing cross-check cross-checking cross-checked go-and-look go-and-see go-and-check go-look go-see have-a-look take-a-look eyes-on-the eyes-on-site eyes-on-the-ground",
    stems:
      "provjer proveri verifi vérifi überprüf uberpruf überprü bestätig bestatig comprob confirm verific controleer weryfik doğrula dogrula провер подтвержд تحقق تأكد सत्यापन 確認 确认 验证 확인 cek$ periksa memeriksa pemeriksaan אימות επαληθευσ ยืนยัน xac-minh kuthibitisha uthibitisho যাচাই"
  },
  {
    concept: "address",
    family: "fieldwork",
    en: "address addresses signage signboard signboards sign-board",
    stems:
      "ami-ipolowo adresse dirección direccion endereço endereco indirizz adres adresi адрес عنوان पता 住所 地址 주소 schild enseigne letrero insegna כתובת διευθυνσ ที่อยู่ dia-chi anwani ঠিকানা"
  },
  {
    concept: "geotag",
    family: "fieldwork",
    en: "gps geotagged geotag geotagging coordinates gpx gps-tag gps-tags gps-tagged",
    stems:
      "gps geotag géolocalis geolocaliz coordonn coordenad coordinat współrzęd koordinat координат إحداثيات निर्देशांक 座標 坐标 좌표"
  },
  {
    concept: "water-sampling",
    family: "fieldwork",
    mode: "physical",
    en: "water",
    stems: "vanden wasser eau$ agua$ água acqua water woda su-numune вода ماء مياه पानी 水样 水質 水质 vann"
  },
  {
    concept: "sample",
    family: "fieldwork",
    en: "sample samples sampling",
    stems:
      "megin probe proben probenahm échantillon echantillon muestra campion amostra monster próbk probk numune проб عينة नमूना サンプル 样本 采样 샘플 prøve prove דגימ δειγμ ตัวอย่าง зразк mostr sampuli hang-mau mau-thu"
  },
  {
    concept: "household",
    family: "fieldwork",
    mode: "physical",
    en: "household households door-to-door",
    stems:
      "haushalt ménage menage hogar hogares domicíli domicili famíli huishoud gospodarstw hane домохозяйств أسر घर-घर 世帯 家庭 가구 משק-בית νοικοκυρι ครัวเรือน домогосп gospodari ho-gia-dinh kaya$"
  },
  {
    concept: "repair",
    work: true,
    family: "fieldwork",
    en: "repair repairs mend rewire rewiring rewired",
    stems:
      "remont poprav gyara ጥገና मर्मत பழுது pembaikan baiki reparat répar repar ripara herstel napraw oprav tamir ремонт إصلاح मरम्मत 修理 维修 修理 수리"
  },
  {
    concept: "agriculture",
    family: "fieldwork",
    en: "crop crops farm farms farmer farmers plot plots agriculture agricultural maize harvest smallholder agronomist agronomists agronomy extension-officer",
    stems:
      "landwirt ernte acker agricol agrícol agricult cultivo culture parcell parcel lavoura raccolt boerderij gewas rolnict uprawa tarla tarım tarim çiftç сельск урожа поле زراع محاصيل مزرع खेत फसल 農 农 作物 농업 작물 חקלא γεωργ เกษตร сільськогосп nong-nghiep cay-trong kilimo mashamba shamba mazao"
  },
  {
    concept: "pesticide",
    family: "fieldwork",
    en: "pesticide pesticides agrochemical agrochemicals",
    stems: "pestizid pesticid agrochim agroquím pesticyd pestisit пестицид مبيد कीटनाशक 農薬 农药 농약"
  },
  {
    concept: "micromobility",
    family: "fieldwork",
    en: "scooter scooters e-scooter e-scooters escooter bike bikes bicycle bicycles e-bike micromobility fleet",
    stems:
      "roller fahrrad leihrad trottinette vélo velo patinete bicicleta monopattino fiets deelfiets hulajnog rower scooter bisiklet самокат велосипед سكوتر دراجة स्कूटर साइकिल 自転車 キックボード 滑板车 自行车 킥보드 자전거 קורקינט πατινι สกู๊ตเตอร์ trotinet xe-dap baiskeli"
  },
  {
    concept: "count",
    en: "count counts counting tally",
    stems: "zähl zahl compt contar conteggi tellen licz sayım подсч गिनती 数える 计数 세다"
  },
  {
    // What research cites, not the sourcing of suppliers ("sources" is not "sourcing").
    // Work from what is published: done at a desk, wherever it is about.
    concept: "sources",
    family: "research",
    mode: "digital",
    en: "source sources cite cited citing citation citations public-data open-data official-statistics published-data",
    stems:
      "quellen quelle$ sources$ fuentes fuente$ fontes fonte$ bronnen źródł zrodl kaynak источник مصادر स्रोत 出典 出处 來源 출처 sumber surse sursa$"
  },
  {
    concept: "sourcing",
    work: true,
    family: "sourcing",
    en: "sourcing supplier suppliers vendor vendors vet vetting manufacturer manufacturers",
    stems:
      "lieferant beschaff fournisseur proveedor fornecedor fornitor leverancier dostawc tedarik поставщик مورد आपूर्तिकर्ता サプライヤー 供应商 供應商 공급업체 nhà-cung-cấp nha-cung-cap cung-cap ספק προμηθευτ ซัพพลายเออร์ постачальн furnizor wasambazaji beszallit beszállít"
  },
  {
    concept: "factory",
    family: "sourcing",
    mode: "physical",
    en: "factory factories manufacturing",
    stems:
      "fabrik werk$ usine fábrica fabrica fabbric fabriek fabryk fabrika завод фабрик مصنع कारखाना 工場 工厂 工廠 공장 nhà-máy nha-may xuong-may xuong-san-xuat מפעל εργοστασ โรงงาน fabrica$ fabrici$ kiwanda viwanda gyar$ gyár$ gyarak gyárak"
  },
  {
    concept: "handyman",
    work: true,
    family: "fieldwork",
    mode: "physical",
    includes: ["installation"],
    en: "handyman handymen assembly assemble assembled assembling flat-pack shelf-mounting put-up hang-up drill drilling repair repairs odd-job odd-jobs odd-job-man fix-it",
    stems:
      "kurekebisha rekebisha marekebisho aufbau zusammenbau сборк 組み立て 组装 조립 handwerker bricoleur manitas faz-tudo tuttofare klusjesman złota-rączka zlota-raczka tamirci عامل-صيانة हैंडीमैन 便利屋 杂工 잡역부"
  },
  {
    // Putting something in place so it works: a router, a bracket, a dishwasher, panels. Named
    // by itself, it asks for those who install things (a handyman, IT support: `includes`), not
    // for whoever inspects or uses what is installed.
    concept: "installation",
    work: true,
    family: "fieldwork",
    mode: "physical",
    en: "install installs installed installing installation installations installer installers replace replacing mount mounts mounted mounting setup hang hangs hanging",
    stems:
      "installier install instal montage montier монтаж монтир установ подключ تركيب تثبيت स्थापना इंस्टॉल 設置 取り付け 取付 インストール 安装 安裝 설치 התקנ εγκατάστασ kurulum kurmak pasang$ memasang lắp-đặt cài-đặt"
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
      "messe konferenz tagung veranstalt salon conférence conference congrès feria conferencia evento fiera beurs congres targi konferencj etkinlik fuar konferans конференц выставк مؤتمر معرض सम्मेलन कॉन्फ़्रेंस 展示会 会議 展会 会议 컨퍼런스 박람회 전시회 전시 참석 행사 כנס$ תערוכה συνεδρι งานแสดงสินค้า สัมมนา виставк conferint hoi-nghi trien-lam hoi-cho maonyesho rendezveny rendezvény konferenci"
  },
  {
    concept: "notes",
    family: "events",
    en: "notes note minutes summary note-taker note-takers notetaker notetakers note-taking notetaking",
    stems:
      "notiz protokoll note notas appunt aantekening notatk заметк ملاحظات नोट्स ノート メモ 笔记 노트 메모 סיכום σημειωσ จดบันทึก нотатк notite ghi-chu"
  },
  {
    concept: "meeting",
    family: "events",
    mode: "physical",
    en: "meeting meetings appointment appointments",
    stems:
      "treffen meeting besprechung termin réunion reunion rendez-vous reunión cita riunion incontro appuntament vergadering afspraak spotkan toplantı toplanti randevu встреч совещ اجتماع موعد बैठक 会議 打ち合わせ 会议 会面 회의 미팅 פגישה συναντησ ประชุม зустріч intalnir cuoc-hop mkutano"
  },
  {
    concept: "visit",
    saysWhere: true,
    family: "fieldwork",
    mode: "physical",
    en: "visit visits visiting site-visit site-visits walk-around",
    stems:
      "besuch besichtig visite visita bezoek wizyt ziyaret посещ визит زيارة दौरा 訪問 見学 视察 参观 访问 방문 thăm tham$ ביקור επισκεψ เยี่ยมชม відвід vizit kutembelea tembelea besök besok navštív navstiv návštěv navstev meglátogat meglatogat látogat latogat بازدید käynti kaynti vierail"
  },
  {
    concept: "sign-language",
    family: "language",
    // Not "signing": a lease or a contract is signed. Someone "who signs", said of a person, signs
    // a language.
    en: "asl sign-language signed-language deaf who-signs who-can-sign",
    stems:
      "gebärdensprach gebardensprach langue-des-signes lengua-de-señas lengua-de-senas lingua-de-sinais lingua-dei-segni gebarentaal język-migowy jezyk-migowy işaret-dili isaret-dili жестов لغة-الإشارة सांकेतिक 手話 手语 수어 señas senas signes sinais שפת-סימנ νοηματικ ภาษามือ limbajul-semnelor lugha-ya-ishara"
  },
  {
    concept: "medical",
    family: "language",
    en: "medical clinical doctor doctors patient patients clinic hospital",
    stems:
      "medizin ärztl arztl médic medic clínic clinic klinik medisch medyczn tıbbi tibbi медицин врач طبي طبيب चिकित्सा 医療 医学 医疗 醫療 의료 רופא רפוא ιατρ แพทย์ медичн y-te matibabu daktari"
  },
  {
    concept: "audio",
    family: "audio",
    en: "audio record recording recordings recorded sound podcast",
    stems:
      "audio tonaufnahm enregistr grabación grabacion gravação gravacao registrazion opname nagran kayıt kayit аудио запис تسجيل صوت ऑडियो रिकॉर्डिंग 音声 録音 音频 录音 오디오 녹음 הקלטה הקלט ηχογραφ аудіо inregistrar ghi-am sauti"
  },
  {
    concept: "video",
    family: "audio",
    en: "video videos webinar webinars documentary",
    stems: "video vidéo vídeo wideo видео فيديو वीडियो ビデオ 動画 视频 視頻 비디오 영상 וידאו סרטון βιντεο วิดีโอ відео"
  },
  {
    // Customers are no work; named so that Vietnamese "khách hàng" (customer) is not read
    // syllable by syllable ("hàng" folds to English "hang", a fitter's word).
    concept: "customer",
    en: "clientele",
    stems: "khach-hang khách-hàng"
  },
  {
    // Vietnamese "dịch vụ" (a service) and "dịch bệnh" (an epidemic): no "dịch", translating.
    concept: "service",
    en: "service-offering",
    stems: "dich-vu dịch-vụ dich-benh dịch-bệnh"
  },
  {
    concept: "product",
    family: "imaging",
    en: "product products goods",
    stems:
      "mat-hang mặt-hàng hang-hoa hàng-hóa produkt produit producto produto prodott product ürün urun товар منتج उत्पाद 商品 製品 产品 제품 barang προιον produk מוצר สินค้า produs san-pham bidhaa termek$ termék$ termekek termékek محصول tuote tuotteid výrob vyrob"
  },
  {
    concept: "studio",
    family: "imaging",
    en: "studio lightbox white-background lifestyle",
    stems: "studio estudio estúdio weiß blanc$ blanco branco bianc biał bial beyaz бел أبيض सफेद 白背景 白底 흰"
  }
]
