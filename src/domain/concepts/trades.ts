/**
 * Kinds of work a directory may have nobody for: trades and services agents ask for that are
 * far from the sample catalogue's work (plumbing, carpentry, cooking, moving house, tutoring…),
 * named in the languages agents write in, as the concepts of work.ts are. Named so that a task
 * asking for one is known to ask for work, and is plausible only for those who do it
 * (`isPlausible`, src/domain/matching_rules.ts): without them, a request to install, cook or
 * move is read by its objects alone, and whoever shares an object ("panels", "kitchen") looks
 * plausible. Written from the vocabulary of each trade, never from a judged request.
 */
import type { Concept } from "./concept.ts"

export const trades: ReadonlyArray<Concept> = [
  {
    // Tax returns are an accountant's or tax adviser's; a bookkeeper may refuse them.
    concept: "tax-return",
    work: true,
    mode: "digital",
    en: "tax-return tax-returns tax-filing tax-filings tax-preparation tax-preparer tax-preparers file-taxes income-tax-return self-assessment-return",
    stems:
      "steuererklärung steuererklarung déclaration-d-impôts declaration-d-impots déclaration-de-revenus declaration-de-revenus declaración-de-la-renta declaracion-de-la-renta declaración-de-impuestos declaracion-de-impuestos declaração-de-imposto declaracao-de-imposto declaração-de-irpf declaracao-de-irpf dichiarazione-dei-redditi belastingaangifte zeznanie-podatkowe vergi-beyannamesi налоговая-декларац налоговую-декларац податкова-декларац الإقرار-الضريبي إقرار-ضريبي आयकर-रिटर्न 確定申告 报税 纳税申报 報稅 세금신고 연말정산 spt-pajak"
  },
  {
    // Spraying crops is a trade of its own: who surveys a field does not spray it.
    concept: "crop-spraying",
    work: true,
    mode: "physical",
    en: "spray sprays sprayed spraying sprayer crop-spraying crop-duster pesticide-application apply-pesticide apply-pesticides fumigate fumigating fumigation",
    stems:
      "sprüh spruh spritzen pulvéris pulveris fumig pulveriz irrorar irroraz opryskiw opryskac postrzyk ilaçlama ilaclama опрыск обприск رش-المبيد رش-مبيد छिड़काव 散布 喷洒 噴灑 살포 ריסוס ψεκασ ฉีดพ่น phun-thuoc menyemprot penyemprotan kunyunyizia"
  },
  {
    // Writing that another signs as their own: nobody's work here, and ruled out by some. Said
    // in other words ("write an article she will publish under her name"), writing with a
    // byline of someone else's is read so (`ghostwritten`, src/domain/words.ts).
    concept: "ghostwriting",
    work: true,
    mode: "digital",
    en: "ghostwrite ghostwrites ghostwriting ghostwritten ghostwriter ghostwriters ghost-write ghost-writing ghost-written ghost-writer ghost-writers",
    stems:
      "ghostwrit escritor-fantasma escritora-fantasma negre-litteraire prete-plume scrittore-fantasma autor-widmo гострайтер литературный-негр كاتب-ظل کاتب-سایه घोस्टराइटर 代笔 代筆 ゴーストライター 대필 hayalet-yazar penulis-bayangan"
  },
  {
    // Writing reviews that pose as customers' own: nobody's work here, and ruled out by some.
    concept: "fake-reviews",
    work: true,
    mode: "digital",
    en: "write-reviews write-glowing leave-glowing post-glowing glowing-review write-positive-review leave-positive-review post-positive-review fake-review fake-reviews fake-five-star fake-5-star paid-review paid-reviews astroturf astroturfing sock-puppet sock-puppets",
    stems:
      "escribir-reseñas escribir-resenas rédiger-des-avis rediger-des-avis bewertungen-schreiben escrever-avaliações escrever-avaliacoes scrivere-recensioni gefälschte-bewertung gefalschte-bewertung fake-bewertung faux-avis avis-falsos reseñas-falsas resenas-falsas avaliações-falsas avaliacoes-falsas recensioni-false valse-recensies fałszywe-opinie falszywe-opinie fałszywe-recenzje falszywe-recenzje sahte-yorum фейковые-отзывы фальшивые-отзывы накрутка-отзыв مراجعات-مزيفة تقييمات-مزيفة 虚假评论 虚假好评 刷好评 やらせレビュー ulasan-palsu"
  },
  {
    concept: "plumbing",
    work: true,
    mode: "physical",
    en: "plumber plumbers plumbing",
    stems:
      "klempner sanitärinstall plombier fontaner encanador idraulic loodgieter hydraulik tesisatçı tesisatci сантехник سباك प्लंबर 配管工 水道屋 水管工 배관공 אינסטלטור υδραυλικ ช่างประปา tukang-ledeng"
  },
  {
    concept: "carpentry",
    work: true,
    mode: "physical",
    en: "carpenter carpenters carpentry joiner joinery",
    stems:
      "tischler schreiner zimmerer menuisier charpentier carpinter marceneir falegnam timmerman stolarz marangoz плотник столяр نجار बढ़ई 大工 木工 목수 נגר ξυλουργ ช่างไม้ tukang-kayu"
  },
  {
    concept: "cooking",
    work: true,
    mode: "physical",
    // Not "chef" alone: in German and French it is a boss ("unseres Chefs", "chef de projet").
    en: "cook cooks cooking a-chef private-chef private-chefs personal-chef personal-chefs hire-a-chef chef-for chef-to head-chef sous-chef pastry-chef catering caterer",
    stems:
      "kochen koch$ köchin cuisinier traiteur cociner cocinar cozinh cucin catering kok$ kucharz aşçı asci повар кулинар طباخ طبخ रसोइया खाना-बनान 料理人 板前 厨师 요리사 טבח μάγειρ พ่อครัว แม่ครัว đầu-bếp juru-masak"
  },
  {
    concept: "moving-house",
    work: true,
    mode: "physical",
    // Not "mover" alone: Spanish and Portuguese "mover" is to move anything ("mover los datos").
    en: "movers-to movers-for hire-movers need-movers a-mover moving-house house-move removals-company removal-company moving-company removalist removalists man-with-a-van",
    stems:
      "umzug déménag demenag mudanza mudança mudanca traslocare trasloco verhuiz przeprowadz nakliyat taşınma tasinma переезд грузчик عفش 引っ越し 引越し 搬家 이삿짐 이사 הובלה μετακόμισ ขนย้าย chuyển-nhà chuyen-nha pindahan"
  },
  {
    // Repairing and servicing vehicles, as a garage does: not the check of a car's condition
    // before a purchase. A vehicle's parts (brakes, tyres) and its mechanic are what either
    // work is about ("vehicle", imaging_inspection.ts); replacing a part is installation.
    concept: "vehicle-repair",
    work: true,
    mode: "physical",
    en: "car-repair auto-repair car-service car-servicing oil-change tyre-fitting tire-fitting wheel-alignment",
    stems:
      "ölwechsel olwechsel autowerkstatt kfz-werkstatt vidange garagiste cambio-de-aceite cambiar-el-aceite troca-de-oleo trocar-o-oleo cambio-olio wymiana-oleju warsztat-samoch oto-tamir yag-degis автосервис автомастерск замена-масла 修车 汽车维修 정비소 מוסך συνεργειο ช่างซ่อมรถ sua-xe bengkel fundi-wa-magari service-auto"
  },
  {
    concept: "hairdressing",
    work: true,
    mode: "physical",
    en: "hairdresser hairdressers hairdressing haircut haircuts barber barbers hairstylist",
    stems:
      "friseur friseuse coiffeur coiffure peluquer cabeleireir parrucchier kapper fryzjer kuaför kuafor berber парикмахер стрижк حلاق नाई 美容師 理髪 理发 미용사 이발 ספר שיער κομμωτ ช่างตัดผม tukang-cukur"
  },
  {
    concept: "cleaning-service",
    work: true,
    mode: "physical",
    en: "cleaner cleaners housekeeping housekeeper housecleaning house-cleaning janitor janitorial wash washing car-wash",
    stems:
      "putzkraft reinigungskraft nettoyeur limpiador faxineir diarista schoonmaker sprzątacz sprzatacz temizlikçi temizlikci уборщ мойщ نظافة 掃除 清扫 保洁 청소 ניקיון καθαρίστρ καθαριστ ทำความสะอาด"
  },
  {
    concept: "massage",
    work: true,
    mode: "physical",
    en: "massage massages masseur masseuse",
    stems: "massag masaj массаж تدليك मालिश マッサージ 按摩 마사지 עיסוי μασάζ นวด pijat"
  },
  {
    concept: "veterinary",
    work: true,
    mode: "physical",
    en: "vet vets veterinarian veterinary",
    stems:
      "tierarzt tierärzt vétérinaire veterinari weterynar veteriner ветеринар بيطري पशुचिकित्स 獣医 兽医 수의사 וטרינר κτηνίατρ สัตวแพทย์ thú-y bác-sĩ-thú dokter-hewan"
  },
  {
    concept: "tutoring",
    work: true,
    en: "tutor tutors tutoring tuition teacher teaching lesson lessons",
    stems:
      "nachhilfe unterricht lehrer professeur cours-particulier clases profesor aulas lezioni bijles korepetyc korepetytor ders$ öğretmen ogretmen репетитор урок مدرس$ مدرس-خصوصي دروس ट्यूशन शिक्षक 家庭教師 家教 과외 מורה שיעור μαθήματα ครูสอน gia-sư les-privat"
  },
  {
    concept: "music-composition",
    work: true,
    mode: "digital",
    // Not "compose", "compos-", "compon-" or "beste" alone: French "composé" (made up of), Spanish
    // "componentes" (components), German "beste" (best).
    en: "compose-music compose-a compose-an compose-the compose-our compose-original composing-music composing-a music-composer film-composer a-composer hire-a-composer composer-for composers-for songwriting songwriter soundtrack jingle",
    stems:
      "komponi componer-musica componer-música compor-musica compor-música composer-musique composer-une comporre-musica compositor componist kompozyt bestele beste-yap сочин композит تلحين संगीतकार 作曲 작곡 הלחנ συνθέτ แต่งเพลง sáng-tác sang-tac"
  },
  {
    concept: "painting-decorating",
    work: true,
    mode: "physical",
    en: "painter painters decorator decorators house-painting wall-painting repaint repainting",
    stems:
      "maler$ anstreich wände-streichen wande-streichen wand-streichen zimmer-streichen peintre peinture pintor pintur imbianc schilderen schilderwerk huisschilder malarz malowan boyacı boyaci boya$ badana$ маляр покрас دهان पुताई 塗装 油漆 刷墙 페인트 צבעי ελαιοχρωματ ช่างทาสี thợ-sơn tho-son tukang-cat"
  },
  {
    concept: "gardening",
    work: true,
    mode: "physical",
    en: "gardener gardeners gardening landscaping landscaper lawn lawns mow mowing",
    stems:
      "gärtner gartner rasen jardinier jardiner jardinag giardinier tuinier ogrodnik bahçıvan bahcivan садовник газон بستاني माली 庭師 园丁 정원사 גנן κηπουρ คนสวน làm-vườn lam-vuon tukang-kebun"
  },
  {
    concept: "childcare",
    work: true,
    mode: "physical",
    en: "babysit babysits babysitting babysitter babysitters nanny nannies childcare childminder",
    stems:
      "kinderbetreu kinderfrau babysitter nounou garde-d-enfant niñera ninera oppas opiekunk bakıcı bakici няня нян مربية आया ベビーシッター 保姆 베이비시터 בייביסיטר νταντά พี่เลี้ยง"
  },
  {
    concept: "video-editing",
    work: true,
    mode: "digital",
    en: "videographer videography video-editing video-editor footage",
    stems:
      "videoschnitt videograf videógraf montage-video montaje-de-video edição-de-vídeo видеомонтаж مونتاج वीडियो-एडिट 動画編集 视频剪辑 영상편집 עריכת-וידאו μοντάζ ตัดต่อ"
  },
  {
    concept: "web-development",
    work: true,
    mode: "digital",
    en: "app-developer app-developers app-development mobile-developer ios-developer android-developer web-developer web-development website-builder shopify wordpress webshop-build",
    stems:
      "webentwickl développeur-web desarrollador-web desenvolvedor-web sviluppatore-web веб-разработ 웹개발 网站开发 ウェブ制作"
  }
]
