/** Research and checking, and data work (the concept layer's data: src/domain/concepts/work.ts says how it is read). */
import type { Concept } from "./concept.ts"

export const researchAndData: ReadonlyArray<Concept> = [
  // Research and checking.
  {
    concept: "research",
    work: "shared",
    family: "research",
    mode: "digital",
    en: "research researcher researching",
    stems:
      "raziskav recerc tyrim petijum अनुसन्धान ምርምር ஆராய்ச்சி penyelidikan bincik recherch recherche investigac investigaç pesquis ricerc onderzoek badan araştır arastir исследован بحث शोध अनुसंधान 調査 调研 研究 조사 리서치 מחקר ερευν วิจัย дослідж cercetar nghien-cuu utafiti kutatas kutatás গবেষণা istraživ istraziv tutkimu"
  },
  {
    concept: "ux-research",
    work: true,
    family: "research",
    en: "ux user-research usability diary-study diary moderated-usability moderated-session moderated-sessions",
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
    en: "interview interviews interviewing interviewer talk-to talk-with speak-to speak-with chat-with sit-down-with sit-down-face sit-with hear-from conversations-with one-on-one one-to-one",
    stems:
      "sentarse-con sentar-com sentar-se-com asseoir-avec zusammensetzen sedersi-con usiąść-z usiasc-z intervju intervij अन्तर्वार्ता நேர்காணல் ቃለ-መጠይቅ temu-bual iforowanilenuwo hira$ sprechen-mit gespräche-mit gesprache-mit parler-avec hablar-con conversar-com parlare-con praten-met porozmawiać-z porozmawiac-z konuşmak konusmak поговорить-с interview entrevist entretien intervist wywiad görüşme gorusme mülakat интервью مقابل साक्षात्कार インタビュー 访谈 訪談 采访 인터뷰 ראיון ראיונות συνεντευξ สัมภาษณ์ інтерв interviu phong-van mahojiano interju interjú সাক্ষাৎকার"
  },
  {
    concept: "survey",
    work: "shared",
    family: "fieldwork",
    en: "survey surveys surveyor surveying enumeration enumerator enumerators poll questionnaire questionnaires census data-collector data-collectors data-collection field-interviewer price-collector price-collectors ask-household ask-famil ask-resident ask-people ask-customer ask-shopper ask-farmer ask-passer ask-voter ask-citizen ask-tenant ask-parent ask-local ask-respondent ask-commuter ask-patient",
    stems:
      "enquest apklaus aptauj கணக்கெடுப்பு ዳሰሳ የዳሰሳ umfrag befragung erhebung fragebog sondage enquête enquete encuesta cuestionari questionári questionari pesquisa-de-campo sondagg indagin enquête vragenlijst ankiet anket опрос анкет استبيان مسح सर्वेक्षण アンケート 调查 調查 问卷 설문 סקר δημοσκοπ สำรวจ опитув sondaj khao-sat dodoso felmeres felmérés kerdoiv kérdőív জরিপ kysely enkät enkat průzkum pruzkum نظرسنج sarbey سروے$"
  },
  {
    concept: "market-research",
    work: true,
    family: "research",
    mode: "digital",
    en: "market-sizing market-size market-sizes size-the-market market-share desk-research desk-study desk-based secondary-research market-analysis competitor-analysis competitive-analysis competitor-overview competitive-landscape market-analyst market-analysts research-analyst industry-analyst",
    stems:
      "marktanalys marktforsch marktgröß marktgroß marktgröss marktgross desk-research schreibtischrecherch sekundärforsch sekundarforsch wettbewerbsanalys recherche-documentaire étude-documentaire etude-documentaire investigación-documental investigacion-documental estudio-de-escritorio estudio-documental pesquisa-documental ricerca-documentale deskresearch tamaño-del-mercado tamano-del-mercado taille-du-marché taille-du-marche tamanho-do-mercado dimensione-del-mercato wielkość-rynku wielkosc-rynku pazar-büyüklüğü pazar-buyuklugu объём-рынка объем-рынка кабинетн حجم-السوق बाजार-आकार 市場規模 デスクリサーチ 案头研究 시장-규모 ukuran-pasar cercetare-de-piață cercetare-de-piata studiu-de-piață studiu-de-piata étude-de-marché etude-de-marche estudio-de-mercado análisis-de-mercado pesquisa-de-mercado ricerca-di-mercato marktonderzoek analiza-rynku pazar-araştırma маркетинг анализ-рынка أبحاث-السوق बाजार 市場調査 市场调研 市场规模 시장조사 מחקר-שוק ερευνα-αγορ วิจัยตลาด дослідження-ринк nghien-cuu-thi utafiti-wa-soko piackutat"
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
    en: "fact-check fact-checking factcheck factchecking debunk first-posted first-appeared first-published first-shared originally-posted",
    stems:
      "faktencheck faktenprüf faktenpruf vérification-des-faits verification-des-faits fact-check verificación-de-datos verificacion-de-datos checagem verifica-dei-fatti feitencheck sprawdzanie-fakt fakt doğrulama dogrulama проверка-факт факт تحقق-من-الحقائق तथ्य ファクトチェック 事实核查 팩트체크 בדיקת-עובד ελεγχος-γεγον фактчек перевірка-факт verificarea-fapt kiem-chung ตรวจสอบข้อเท็จจริง kuhakiki-ukweli tényellenőrz tenyellenorz doğruluk-kontrol dogruluk-kontrol راستی-آزمای"
  },
  {
    concept: "news",
    mode: "digital",
    family: "research",
    // "news" only whole: Porter's stem of "news" is "new".
    en: "article articles press journalism",
    stems:
      "news$ nachricht artikel presse article artículo articulo artigo articol nieuws prasow haber новост стать خبر مقال समाचार लेख 記事 新闻 新聞 기사"
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
    en: "case-law caselaw jurisprudence statute statutes legal-researcher",
    stems: "jurisprud jurisprudên 判例 판례 פסיקה νομολογ судова-практ an-le"
  },
  {
    // The law a task is about ("legal documents", "a lawyer's office"): not legal research.
    concept: "law",
    family: "legal",
    en: "legal law laws lawyer solicitor paralegal paralegals",
    stems:
      "recht juristi juridi jurídic direito derecho diritto droit$ legal prawn hukuk прав юрид قانون قانوني कानून 法律 법률 עורך-דין δικηγορ νομικ правов avocat wakili sheria"
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
    // Not "filing": a court filing says "court", and "file" is said of every kind of work.
    // "tribunal" among the stems, not here: Porter makes "Tribune" (a newspaper) "tribunal"'s stem.
    en: "court courts courthouse court-runner process-server court-clerk",
    stems:
      "gericht tribunal corte tribunale rechtbank sąd$ sad$ mahkeme суд محكمة अदालत 裁判所 法院 법원 בית-משפט δικαστ toa-an mahakama"
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
    en: "data-entry typing type-up type-out type-them-up type-them-into type-it-into type-into key-in key-them-into key-it-into keying digitise digitize digitising digitizing digitisation digitization typist typists data-entry-clerk",
    stems:
      "unos-podataka vnos-podatkov entrada-de-dades kemasukan-data datenerfass dateneingab abtipp digitalis digitaliz saisie entrada-de-datos entrada-de-dados inserimento-dati data-invoer wprowadzan veri-giriş veri-giris ввод-данн إدخال-بيانات डेटा-एंट्री データ入力 数据录入 데이터-입력 הקלדה הזנת-נתונ καταχωρησ คีย์ข้อมูล ป้อนข้อมูล введення-дан introducerea-dat introducere-dat nhap-lieu nhap-du-lieu kuingiza-data adatbevit ডেটা-এন্ট্র ডাটা-এন্ট্র tiedonsyöt tiedonsyot datainmatn zadávání-dat zadavani-dat entri-data input-data εισαγωγη-δεδομενων הקלדת-נתונים ورود-اطلاعات"
  },
  {
    concept: "spreadsheet",
    family: "data",
    mode: "digital",
    en: "spreadsheet spreadsheets excel sheets csv table",
    stems:
      "tabelle excel tableur feuille-de-calcul hoja-de-cálculo hoja-de-calculo hojas-de-cálculo planilha foglio-di-calcolo spreadsheet arkusz elektronik-tablo таблиц جدول स्प्रेडशीट 表計算 电子表格 스프레드시트 স্প্রেডশিট এক্সেল"
  },
  {
    concept: "deduplication",
    work: true,
    family: "data",
    mode: "digital",
    en: "deduplicate deduplication dedupe duplicates",
    // "normalis"/"normaliz" as beginnings: Porter makes "normalize" "normal", an everyday word.
    stems: "normalis normaliz duplikat dédoublonn dedoublonn dedup дубл 重複 去重 중복 ডুপ্লিকেট"
  },
  {
    // Cleaning data, a transcript's "clean read", a flat: said of many kinds of work.
    concept: "cleaning",
    family: "data",
    en: "cleaning clean cleanup",
    stems: "bereinig nettoy limpi limpez pulizi opschon czyszcz temizle очистк تنظيف सफाई পরিষ্কার"
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
    en: "label labelling labeling labels annotation annotations annotate annotating annotator tagging bounding-box bounding-boxes polygon polygons segmentation draw-boxes draw-bounding draw-polygons draw-box label-image label-frame label-screenshot label-video label-clip label-scan",
    stems:
      "annotier beschrift label annot etiquet etichett etiket oznacz işaretle isaretle размет аннотац توسيم تعليق-توضيحي एनोटेशन लेबल アノテーション ラベル付け 标注 標註 标记 边界框 라벨링 어노테이션 תיוג επισημανσ ป้ายกำกับ розмітк etichetar gan-nhan cimkez címkéz anotac anotasi σημανση-δεδομενων برچسب"
  },
  {
    concept: "moderation",
    inLanguages: true,
    work: true,
    family: "data",
    mode: "digital",
    en: "moderation moderate moderator moderating posting-rules community-guidelines community-standards content-policy house-rules",
    stems:
      "flagged$ moderat modéra moderac moderaç moderazion moderasyon moderacj модерац إشراف الإشراف मॉडरेशन モデレーション 审核内容 内容审核 모더레이션 denetle topluluk-kural מודרציה ניהול-תוכן εποπτει กลั่นกรองเนื้อหา kiem-duyet moderoi moderov"
  },
  {
    concept: "content",
    mode: "digital",
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
      "buchhalt buchführ buchfuhr comptab contabil boekhoud księgow ksiegow muhasebe бухгалтер محاسب बहीखाता लेखा 記帳 会计 會計 簿記 회계 장부 הנהלת-חשבונ λογιστ ทำบัญชี ke-toan uhasibu mhasibu konyvel könyvel হিসাবরক্ষণ kirjanpi bokför bokfor účetn ucetn pembukuan حسابدار 记账 akuntan מנהל-חשבונות 経理 นักบัญชี मुनीम"
  },
  {
    concept: "reconciliation",
    work: true,
    family: "finance",
    mode: "digital",
    en: "reconcile reconciliation reconciling",
    stems:
      "abstimm kontenabstimm abgleich rapprochement conciliac conciliaç riconcili afstemm uzgadnian mutabakat сверк تسوية मिलान 照合 对账 對帳 대사 reconcilier doi-chieu"
  },
  {
    concept: "bank",
    family: "finance",
    en: "bank banking statement statements",
    stems: "bank$ banque banco banca banka банк بنك बैंक 銀行 银行 은행 ngan-hang ngân-hàng"
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
  }
]
