/** Language work, where the work happens and files, and languages by name (the concept layer's data: src/domain/concepts/work.ts says how it is read). */
import type { Concept } from "./concept.ts"

export const languageWork: ReadonlyArray<Concept> = [
  // Language work.
  {
    concept: "translation",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "translation translations translate translated translating translator translators",
    stems:
      "preved prevajanj vertim isvers tulkoj tulkot itumo fassar ትርጉም መተርጎም மொழிபெயர் vertaal переклад перекла תרגום תרגם מתרגם μεταφρ μεταφρασ แปล ubersetz tradu vertal tlumacz tłumacz ceviri çeviri terjemah menerjemah penerjemah alih-bahasa перевод перевест переведит ترجم مترجم$ अनुवाद 翻訳 翻译 翻譯 번역 tafsiri kutafsiri dich$ dich-sang dich-tu dich-thuat ban-dich dich-tai dich-van fordit fordít অনুবাদ kaanno kaanta kaantaj översätt oversatt oversæt oversaet oversett překlad preklad přelož preloz prijevod prevod prevest превод превед fordít fordit lefordít lefordit pagsasalin isalin$ tagasalin çevirmen cevirmen mtafsiri nguoi-dich người-dịch"
  },
  {
    concept: "interpretation",
    inLanguages: true,
    work: true,
    family: "language",
    en: "interpretation interpret interpreter interpreters interpreting interpreted",
    stems:
      "tumac tolmac tulks$ tafinta አስተርጓሚ jurubahasa перекладач תורגמן מתורגמן διερμην ล่าม dolmetsch interpret interprete intérprete tolk tercuman tercüman переводчик مترجم-فوري दुभाषि 通訳 口译 口譯 통역 mkalimani ukalimani phien-dich thong-dich tolmacs tolmács tulkk tlumočn tlumocn tlumacz-ustn tłumacz-ustn juru-bahasa penerjemah-lisan مترجم-شفو مترجم-فوري усний-переклад"
  },
  {
    // "Local", "locally": where someone is, not localization (whose English stem it is).
    concept: "local",
    en: "local locals locally"
  },
  {
    concept: "localization",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "localization localize localized localizing localise localised localisation l10n",
    stems: "lokalis lokaliz localiz localis ローカライズ 本地化 현지화"
  },
  {
    concept: "transcription",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "transcription transcribe transcribed transcribing transcriber transcript transcripts dictation dictated transcriptionist transcriptionists scribe scribes",
    stems:
      "ट्रान्सक्रिप्सन przepisac$ przepisz$ przepisanie$ przepisania$ תמלול תמלל ถอดเสียง ถอดความ απομαγνητοφων transkri transcri transcrib transkrypc transkrip abtipp diktat dictad dictée dictee dettat транскри расшифр تفريغ نسخ ट्रांसक्रिप्शन 文字起こし 書き起こし 转录 轉錄 听写 받아쓰기 전사 phien-am chep-loi go-bang транскриб unukuzi atiras átírás প্রতিলিপি ট্রান্সক্রিপ litteroi trascri přepis prepis přepsa prepsa átír atir$ átirat atirat transkripsyon"
  },
  {
    concept: "captioning",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "caption captions captioning captioned subtitle subtitles subtitling subtitled srt webvtt vtt",
    stems:
      "titlov subtitol sarikata sari-kata வசனவரி untertit sous-titr soustitr subtitul sottotitol legend ondertitel napisy napisow napisami napisach altyazi altyazı субтитр ترجمة-مرئية उपशीर्षक कैप्शन 字幕 자막 כתוביות υποτιτλ คำบรรยาย subtitr phu-de manukuu felirat tekstity undertext titulk زیرنویس"
  },
  {
    concept: "proofreading",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "proofread proofreading proofreader copyedit copyediting copyeditor copy-edit grammar typo typos spelling misspelling misspellings sub-editor sub-editors subeditor subeditors sub-editing subediting copy-editor copy-editors",
    stems:
      "lektur korrektur lektorat lektor relectur relire$ correcteur corrector correttor redactie korekt редактур корректур تدقيق प्रूफ 校正 校对 校對 교정 הגהה διορθωσ พิสูจน์อักษร коректур corectur hieu-dinh soat-loi orthograph ortograf ορθογραφ правопис орфограф rechtschreib imla$ 拼写 綴り 맞춤법 ortografia kusahihisha oikoluk вычитк"
  },
  {
    concept: "editing",
    inLanguages: true,
    work: true,
    family: "language",
    mode: "digital",
    en: "edit editing edited editor polish-the polish-our polish-my polish-your polish-this polish-up",
    stems: "bearbeit redig edicion edición edicao edição επιμελει עריכה редагув bien-tap ویرایش"
  },
  {
    concept: "writing",
    family: "language",
    en: "writing written writer tutorial tutorials copywriting draw-up drawing-up drawn-up",
    stems:
      "schreib redact rédig rediger$ redigez$ redige$ redigee$ redigees$ ecrire$ ecrivez$ ecrivain escrib escrev scriv schrijv napisa napisz написа كتابة लेखन 執筆 撰写 작성"
  },
  {
    // Whose name a text goes out under, when it is not the writer's: with writing, ghostwriting
    // (`ghostwritten`, src/domain/words.ts); alone ("register the car under her name"), nothing.
    concept: "byline",
    en: "under-his-name under-her-name under-their-name under-my-name under-our-name under-your-name as-his-own as-her-own as-their-own as-my-own as-our-own his-byline her-byline their-byline",
    stems:
      "unter-dem-namen unter-seinem-namen unter-ihrem-namen unter-meinem-namen unter-unserem-namen sous-son-nom sous-mon-nom sous-leur-nom sous-notre-nom bajo-su-nombre bajo-mi-nombre con-su-firma sob-o-nome sob-seu-nome sotto-il-suo sotto-il-mio onder-zijn-naam onder-haar-naam onder-mijn-naam onder-onze-naam pod-własnym-nazwisk pod-wlasnym-nazwisk pod-moim-nazwisk pod-jego-nazwisk pod-jej-nazwisk pod-naszym-nazwisk под-своим-имен под-моим-имен под-его-имен под-её-имен под-ее-имен kendi-adıyla kendi-adiyla onun-adıyla onun-adiyla atas-nama-nya atas-namanya"
  },
  {
    concept: "documentation",
    work: true,
    family: "software",
    mode: "digital",
    en: "documentation docs manual manuals handbook instructions installation-instructions installation-guide installation-guides installation-manual setup-guide setup-instructions install-guide assembly-instructions repair-manual repair-guide user-guide user-guides how-to-guide",
    stems:
      "dokumentation documentac documentaç documentazion handleiding instrukcj bedienungsanleitung anleitung manuel manuale документац توثيق दस्तावेजीकरण マニュアル 文档 문서화 תיעוד τεκμηριωσ documentati คู่มือ"
  },
  {
    concept: "voice",
    inLanguages: true,
    work: true,
    family: "audio",
    mode: "digital",
    en: "voice voiceover voice-over narration narrator narrate dubbing voice-actor voice-actors voice-talent voice-artist",
    stems:
      "voz-en-off voz-off voix-off voce-fuori-campo grabar-voz grabar-la-voz grabar-mi-voz gravar-voz gravar-a-voz sprecher sprachaufnahm vertoner locución locucion locutor doublage narrazion doppiagg seslendir озвуч تعليق-صوتي वॉयस ナレーション 配音 나레이션 성우 קריינות εκφωνησ พากย์ long-tieng ääninäyttel aaninayttel speakerröst speakerrost namluv szinkron sulih-suara گوینده گویندگی locuç locuc locutor"
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
    saysWhere: true,
    mode: "physical",
    en: "on-site onsite in-person face-to-face in-home in-their-homes at-their-homes home-visit home-visits",
    stems:
      "ቤት-ለቤት cara-a-cara face-a-face face-à-face faccia-a-faccia oog-in-oog twarza-w-twarz twarzą-w-twarz yuz-yuze yüz-yüze очн 面对面 面對面 tatap-muka وجها-لوجه आमने-सामने field-research field-visit field-visits field-study field-studies feldforschung feldstudie trabajo-de-campo investigacion-de-campo estudio-de-campo recherche-terrain sur-le-terrain etude-terrain etude-de-terrain pesquisa-de-campo trabalho-de-campo ricerca-sul-campo sul-campo veldonderzoek badania-terenowe badanie-terenowe saha-arastirmasi saha-calismasi полевые-исследован полевое-исследован полевая-работ penelitian-lapangan kajian-lapangan on-the-street in-the-street op-straat auf-der-strasse auf-der-straße dans-la-rue en-la-calle na-rua in-strada na-ulicy на-улице vor-ort persönlich personlich sur-place en-personne en-persona presencial presencialmente in-loco di-persona ter-plaatse persoonlijk na-miejscu osobiście osobiscie yerinde на-месте лично شخصيا ميداني व्यक्तिगत 現地 対面 现场 現場 当面 현장 대면 langsung ในสถานที่ หน้างาน באתר$ επι-τοπου на-місці особисто la-fata-locului fata-in-fata tai-cho truc-tiep ana-kwa-ana paikan-päällä paikan-paalla paikan-päälle paikan-paalle på-plats pa-plats på-platsen pa-platsen osobně osobne osobiście osobiscie személyesen szemelyesen trực-tiếp truc-tiep حضوری حضورا 实地 到店 ด้วยตนเอง"
  },
  {
    // Going somewhere, said as people say it: dropping by, heading over, knocking on doors.
    concept: "go-there",
    saysWhere: true,
    mode: "physical",
    en: "drop-by drop-in-at stop-by stop-in-at swing-by pop-into pop-in-to pop-round pop-over-to head-over-to head-down-to head-to-the go-and go-round go-over-to go-down-to be-there be-on-site knock-on-doors door-knocking hand-out leaflet leafleting flyering walk-the-route walk-the-streets walk-the-aisles",
    stems:
      "acudir ir-a-la ir-al ir-hasta ir-ate ir-ao pasar-por pasarse-por acercarse-a desplazarse se-rendre passer-a-la passer-au passer-chez aller-a-la aller-au aller-chez aller-voir se-deplacer andare-a andare-in andare-al recarsi passare-da passare-in vorbeigehen vorbeischauen vorbeifahren hingehen hinfahren aufsuchen langsgaan langskomen ga-naar gaan-naar pojsc pojść isc-do iść-do pojechac pojechać zajrzec-do zajrzeć-do udac-sie udać-się gidip gidin ugrayip uğrayıp сходить съездить зайти-в заехать-в に行っ へ行っ に行き へ行き 出向 前往 上门 跑一趟 가서 들러 ذهاب اذهب जाकर pergi-ke datang-ke datangi mendatangi ghe-qua ghé-qua nenda-kwenye"
  },
  {
    concept: "online",
    saysWhere: true,
    mode: "digital",
    en: "online virtual virtually by-phone over-the-phone phone-call phone-calls cold-call cold-calls cold-calling ring-round call-round over-teams via-teams over-whatsapp whatsapp-video via-zoom over-skype work-from-home working-from-home works-from-home wfh no-travel home-office google-drive dropbox wetransfer shared-folder shared-drive attachment attachments attached-file screen-share screen-sharing screenshare screensharing remote-session remote-sessions remote-desktop video-link",
    stems:
      "fernarbeit homeoffice per-e-mail per-email per-mail par-e-mail par-mail par-courriel por-correo-electronico por-correo-electrónico per-posta-elettronica por-correo por-email por-e-mail via-email via-e-mail telefonisch per-telefon por-telefono por-teléfono por-telefone telefonic telefónic telefônic telephoniqu téléphoniqu par-telephone par-téléphone au-telephone au-téléphone per-telefono telefonich telefoniczn przez-telefon telefonla telefonda telefon-ile по-телефону телефонн 電話 电话 전화 lewat-telepon via-telepon melalui-telepon qua-dien-thoai qua-điện-thoại عبر-الهاتف بالهاتف هاتفي फ़ोन-पर फोन-पर kwa-simu heimarbeit télétravail teletravail teletrabajo desde-casa teletrabalho de-casa telelavoro da-casa thuiswerk vanuit-huis zdaln evden-calis uzaktan-calis 在宅 居家 재택 घर-से à-distance a-distance a-distancia remoto remota remotamente a-distanza op-afstand zdaln uzaktan удалённ удаленн дистанционн عن-بعد اونلاين ऑनलाइन リモート オンライン 远程 遠端 在线 線上 원격 온라인 daring jarak-jauh videocall videollamada videochamada visio$ visioconf videogesprek wideorozmow en-ligne ออนไลน์ אונליין מרחוק διαδικτυακ εξ-αποστασεως онлайн дистанційно віддалено de-la-distanta truc-tuyen tu-xa mtandaoni kwa-mbali verkossa$ etänä$ etana$ etätyö etatyo på-distans pa-distans distans$ via-nätet via-natet آنلاین از-راه-دور 远程 線上 线上 在线"
  },
  {
    concept: "file",
    saysWhere: true,
    mode: "digital",
    en: "pdf pdfs json csv docx xlsx srt wav mp3 svg png jpeg jpg",
    stems:
      "datei fichier archivo arquivo bestand plik dosya файл ملف फ़ाइल फाइल ファイル 檔案 파일 ไฟล์ קובץ αρχειο fisier tep$ faili"
  },

  // Languages, by name: a translator's pair and an agent's language meet in any language.
  {
    concept: "lang-japanese",
    en: "japanese",
    stems:
      "japanisch japonais japonés japones japonês japones giappones japans japońsk japonsk japonca японск يابان जापानी 日本語 日语 日文 일본어 японськ ญี่ปุ่น יפנית ιαπωνικ japonez tieng-nhat kijapani japonsk japonštin japonstin japani$ japaniks ژاپنی"
  },
  {
    concept: "lang-english",
    en: "english british american",
    stems:
      "englisch anglais inglés ingles inglês ingles ingles engels angielsk ingilizce английск إنجليز अंग्रेज़ी अंग्रेजी 英語 英语 英文 영어 inggris англійськ αγγλικ อังกฤษ אנגלית englez tieng-anh kiingereza ইংরেজি anglick angličtin anglictin englann engelsk انگلیس"
  },
  {
    concept: "lang-spanish",
    en: "spanish castilian",
    stems:
      "castellan castella$ spanisch espagnol español espanol espanhol spagnol spaans spanyol hiszpańsk hiszpansk ispanyolca испанск إسبان स्पेनिश 西班牙 スペイン語 스페인어 іспанськ สเปน ספרדית ισπανικ spaniol tieng-tay-ban kihispania španělsk spanelsk španělštin spanelstin espanja اسپانیای"
  },
  {
    concept: "lang-french",
    en: "french",
    stems:
      "französisch franzosisch français francais francés frances francês francese frans francusk fransızca fransizca французск فرنس फ़्रेंच फ्रेंच 法语 法語 フランス語 프랑스어 французьк ฝรั่งเศส צרפתית γαλλικ francez tieng-phap kifaransa francouz ranska$ ranskaks فرانسو"
  },
  {
    concept: "lang-arabic",
    en: "arabic darija",
    stems:
      "arabisch arabe árabe arabo arabsk arapça arapca арабск عرب अरबी 阿拉伯 アラビア語 아랍어 арабськ อาหรับ ערבית αραβικ tieng-a-rap kiarabu arabštin arabstin arabsk arabiaks عربی"
  },
  {
    concept: "lang-german",
    en: "german",
    stems:
      "deutsch allemand alemán aleman alemão alemao tedesc duits niemieck almanca немецк ألمان जर्मन 德语 德語 ドイツ語 독일어 німецьк เยอรมัน גרמנית γερμανικ tieng-duc kijerumani německ nemeck němčin nemcin saksaks آلمانی"
  },
  {
    concept: "lang-portuguese",
    en: "portuguese brazilian",
    stems:
      "portugiesisch portugais portugués portugues português portoghes portugees portugalsk portekizce португальск برتغال पुर्तगाली 葡萄牙 ポルトガル語 포르투갈어 португальськ โปรตุเกส פורטוגזית πορτογαλ portughez tieng-bo-dao kireno portugalštin portugalstin portugalsk portugaliks پرتغالی"
  },
  {
    concept: "lang-turkish",
    en: "turkish",
    stems:
      "türkisch turkisch turc$ turco turque turks turecki türkçe turkce турецк ترك तुर्की 土耳其 トルコ語 터키어 турецьк turečtin turectin tureck turkiks ترکی"
  },
  {
    concept: "lang-mandarin",
    en: "mandarin chinese",
    stems:
      "chinesisch chinois chino chinês chines cinese chinees chińsk chinsk çince cince китайск صين चीनी 中文 汉语 漢語 普通话 中国語 중국어 китайськ ภาษาจีน סינית κινεζικ chinez tieng-trung kichina"
  },
  {
    concept: "lang-korean",
    en: "korean",
    stems:
      "koreanisch coréen coreen coreano koreaans koreańsk korece корейск كوري कोरियाई 韩语 韓語 韓国語 한국어 корейськ เกาหลี קוריאנית κορεατικ coreean tieng-han kikorea"
  },
  {
    concept: "lang-quechua",
    en: "quechua",
    stems: "quechua kichwa keczua kečuánštin кечуа"
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
  // Languages nobody in the sample catalogue works in, named so that work asked in them finds
  // nobody rather than whoever works in another language (`languagesAsked`).
  {
    concept: "lang-italian",
    en: "italian",
    stems:
      "italienisch italien italiano italiaans włosk wlosk italyanca итальянск إيطالي इतालवी イタリア語 意大利语 이탈리아어"
  },
  {
    concept: "lang-russian",
    en: "russian",
    stems:
      "russisch russe ruso russo russisch rosyjsk rusça rusca русск روسي रूसी ロシア語 俄语 러시아어 רוסית ρωσικ російськ"
  },
  {
    concept: "lang-ukrainian",
    en: "ukrainian",
    stems:
      "ukrainisch ukrainien ucraniano ucraino oekraïens ukraiński ukrainski ukraynaca украинск українськ أوكراني ウクライナ語 乌克兰语 우크라이나어"
  },
  {
    concept: "lang-hungarian",
    en: "hungarian magyar",
    stems:
      "ungarisch hongrois húngaro hungaro ungherese hongaars węgiersk wegiersk macarca венгерск угорськ مجري ハンガリー語 匈牙利语 헝가리어"
  },
  {
    concept: "lang-finnish",
    en: "finnish",
    stems:
      "finnisch finnois finlandés finlandes finlandese fins$ fińsk finsk fince финск фінськ فنلندي フィンランド語 芬兰语 핀란드어 suomi$"
  },
  {
    concept: "lang-czech",
    en: "czech",
    stems:
      "tschechisch tchèque tcheque checo ceco tsjechisch czesk çekçe cekce чешск чеськ تشيكي チェコ語 捷克语 체코어 čeština cestina"
  },
  {
    concept: "lang-swahili",
    en: "swahili kiswahili",
    stems: "suaheli swahili suajili swahili kiswahili суахили سواحيلي स्वाहिली スワヒリ語 斯瓦希里语 스와힐리어"
  },
  {
    concept: "lang-thai",
    en: "thai",
    stems:
      "thailändisch thailandisch thaï tailandés tailandes tailandese thais$ tajsk tayca тайск تايلاندي थाई タイ語 泰语 태국어 ภาษาไทย"
  },
  {
    concept: "lang-hebrew",
    en: "hebrew",
    stems:
      "hebräisch hebraisch hébreu hebreu hebreo ebraico hebreeuws hebrajsk ibranice иврит іврит عبري हिब्रू ヘブライ語 希伯来语 히브리어 עברית"
  },
  {
    concept: "lang-persian",
    en: "persian farsi",
    stems:
      "persisch persan persa persiano perzisch perski farsça farsca персидск перськ فارسی فارسي फ़ारसी ペルシア語 波斯语 페르시아어"
  },
  {
    concept: "lang-tamil",
    en: "tamil",
    stems: "tamoul தமிழ் тамильск तमिल タミル語 泰米尔语 타밀어"
  },
  {
    concept: "lang-telugu",
    en: "telugu",
    stems: "తెలుగు телугу तेलुगु テルグ語 泰卢固语"
  },
  {
    concept: "lang-punjabi",
    en: "punjabi panjabi",
    stems: "ਪੰਜਾਬੀ पंजाबी پنجابی панджаби パンジャブ語 旁遮普语"
  },
  {
    concept: "lang-yoruba",
    en: "yoruba",
    stems: "yorùbá йоруба ヨルバ語 约鲁巴语"
  },
  {
    concept: "lang-zulu",
    en: "zulu isizulu",
    stems: "зулу ズールー語 祖鲁语"
  },
  {
    concept: "lang-tagalog",
    en: "tagalog filipino",
    stems: "tagalo филиппинск タガログ語 他加禄语 타갈로그어"
  },
  {
    concept: "lang-danish",
    en: "danish",
    stems:
      "dänisch danisch danois danés danes danese deens duńsk dunsk danca датск دنماركي デンマーク語 丹麦语 덴마크어 dansk$"
  },
  {
    concept: "lang-catalan",
    en: "catalan",
    stems:
      "katalanisch catalán català catala catalano catalaans katalońsk katalonsk каталанск カタルーニャ語 加泰罗尼亚语"
  },
  {
    concept: "lang-serbo-croatian",
    en: "serbian croatian bosnian",
    stems:
      "serbisch kroatisch serbe croate serbio croata serbo croato servisch kroatisch serbsk chorwack sırpça hırvatça сербск хорватск سربي كرواتي セルビア語 クロアチア語 塞尔维亚语 克罗地亚语"
  },
  {
    concept: "lang-bulgarian",
    en: "bulgarian",
    stems:
      "bulgarisch bulgare búlgaro bulgaro bulgaars bułgarsk bulgarsk bulgarca болгарск بلغاري ブルガリア語 保加利亚语"
  },
  {
    concept: "lang-cantonese",
    en: "cantonese",
    stems: "kantonesisch cantonais cantonés cantones cantonese kantoński kantonski кантонск 広東語 粤语 廣東話 광동어"
  },
  {
    concept: "lang-nepali",
    en: "nepali",
    stems: "नेपाली непальск ネパール語 尼泊尔语"
  },
  {
    concept: "lang-somali",
    en: "somali",
    stems: "somalisch somalí сомалийск الصومالية ソマリ語 索马里语"
  },
  {
    concept: "lang-yiddish",
    en: "yiddish",
    stems: "jiddisch yiddish ídish idish идиш ייִדיש イディッシュ語"
  }
]
