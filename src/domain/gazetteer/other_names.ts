/**
 * Places as other languages and scripts write them (exonyms and endonyms), by the name the lists
 * show: "Lissabon", "Lisbonne" and "Лиссабон" are Lisbon. Names in a script written without
 * spaces (東京, 서울) are found inside a run of that script ("東京の工場"). Inflected forms that
 * agents write after a preposition are listed as names of their own ("в Каире", "Perthben" is
 * not: only forms common enough to be written by many).
 */
export const otherNames: Readonly<Record<string, string>> = {
  // Countries.
  Germany: "Allemagne|Alemania|Alemanha|Germania|Duitsland|Niemcy|Almanya|Германия|ألمانيا|जर्मनी|ドイツ|德国|독일",
  France: "Frankreich|Francia|França|Frankrijk|Francja|Fransa|Франция|فرنسا|फ़्रांस|フランス|法国|프랑스",
  Spain: "Spanien|Espagne|España|Espanha|Spagna|Spanje|Hiszpania|İspanya|Испания|إسبانيا|スペイン|西班牙|스페인",
  Italy: "Italien|Italie|Italia|Itália|Italië|Włochy|İtalya|Италия|إيطاليا|イタリア|意大利|이탈리아",
  Japan: "Japon|Japón|Japão|Giappone|Japonia|Japonya|Япония|اليابان|जापान|日本|일본",
  China: "Chine|Chinesische Volksrepublik|Cina|Chiny|Çin|Китай|الصين|चीन|中国|중국",
  Mexico: "México|Mexique|Messico|Mexiko|Meksyk|Meksika|Мексика|المكسيك|メキシコ|墨西哥|멕시코",
  Brazil: "Brasilien|Brésil|Brasile|Brazylia|Brezilya|Бразилия|البرازيل|ブラジル|巴西|브라질",
  Egypt: "Ägypten|Égypte|Egipto|Egito|Egitto|Egipt|Mısır|Египет|مصر|エジプト|埃及|이집트",
  Greece: "Griechenland|Grèce|Grecia|Grécia|Griekenland|Grecja|Yunanistan|Греция|اليونان|ギリシャ|希腊|그리스|Ελλάδα",
  Netherlands:
    "Niederlande|Pays-Bas|Países Bajos|Paesi Bassi|Nederland|Holandia|Hollanda|Нидерланды|هولندا|オランダ|荷兰|네덜란드",
  Poland: "Polen|Pologne|Polonia|Polônia|Polska|Polonya|Польша|بولندا|ポーランド|波兰|폴란드",
  Norway: "Norwegen|Norvège|Noruega|Norvegia|Noorwegen|Norwegia|Norveç|Норвегия|النرويج|ノルウェー|挪威|노르웨이|Norge",
  Sweden: "Schweden|Suède|Suecia|Suécia|Svezia|Zweden|Szwecja|İsveç|Швеция|السويد|スウェーデン|瑞典|스웨덴|Sverige",
  Malawi: "Malaui|Малави|ملاوي|马拉维",
  Ecuador: "Equateur|Équateur|Equador|Эквадор|الإكوادور|厄瓜多尔",
  Vietnam: "Viêt Nam|Viet Nam|Việt Nam|Wietnam|Vietnã|Вьетнам|فيتنام|ベトナム|越南|베트남",
  Nigeria: "Nigéria|Нигерия|نيجيريا|ナイジェリア|尼日利亚|나이지리아",
  Kenya: "Kenia|Quénia|Кения|كينيا|ケニア|肯尼亚|케냐",
  India: "Indien|Inde|Índia|Indie|Hindistan|Индия|الهند|भारत|インド|印度|인도",
  Portugal: "Portogallo|Portugalia|Portekiz|Португалия|البرتغال|ポルトガル|葡萄牙|포르투갈",
  // Cities of the catalogue, and a few of the world's most written.
  Cairo:
    "Maadi|Zamalek|Heliopolis|Nasr City|Kairo|Le Caire|Caire|El Cairo|O Cairo|Il Cairo|Kair|Kahire|Каир|Каире|القاهرة|काहिरा|カイロ|开罗|카이로|קהיר|Каїр|Κάιρο|ไคโร|قاهره",
  Lisbon:
    "Lisabon|لیسبون|Lissabon|Lisbonne|Lisboa|Lisbona|Lizbona|Lizbon|Лиссабон|Лиссабоне|لشبونة|リスボン|里斯本|리스본|ליסבון|Λισαβόνα|Лісабон|ลิสบอน|लिस्बन",
  Bucharest:
    "Bukarest|Bucarest|Bucareste|Boekarest|Bukareszt|Bükreş|Бухарест|Бухаресте|بوخارست|ブカレスト|布加勒斯特|בוקרשט|Βουκουρέστι|บูคาเรสต์|बुखारेस्ट|부쿠레슈티",
  Mumbai: "மும்பை|بمبئی|Mumbaí|Мумбаи|مومباي|मुंबई|मुम्बई|ムンバイ|孟买|뭄바이|מומבאי|Μουμπάι|Мумбаї|มุมไบ",
  Tokyo: "توکیو|Tokio|Tóquio|Токио|طوكيو|टोक्यो|東京|东京|도쿄|טוקיו|Τόκιο|Токіо|โตเกียว",
  Osaka: "Ōsaka|Осака|أوساكا|大阪|오사카|אוסקה|Οσάκα|โอซากา|ओसाका",
  Seoul: "سئول|Séoul|Seúl|Seul|Сеул|Сеуле|سول|सियोल|ソウル|首尔|首爾|서울|סאול|Σεούλ|กรุงโซล",
  Taipei: "Đài Bắc|Taipéi|Taipé|Тайбэй|تايبيه|台北|臺北|타이베이|טאיפיי|Ταϊπέι|Тайбей|ไทเป|ताइपे",
  Shenzhen: "Thâm Quyến|Shenzen|Шэньчжэнь|深圳|선전|שנג'ן|Σεντζέν|Шеньчжень|เซินเจิ้น|शेन्ज़ेन",
  Beijing: "Pékin|Pekín|Pequim|Pechino|Peking|Pekin|Пекин|بكين|北京|베이징",
  Shanghai: "Schanghai|Xangai|Szanghaj|Şanghay|Шанхай|شانغهاي|上海|상하이",
  Athens:
    "Ateena|Atény|آتن|Αθήνας|Athen|Athènes|Atenas|Atene|Ateny|Atina|Афины|Афинах|أثينا|アテネ|雅典|아테네|Αθήνα|אתונה|Афіни|เอเธนส์|एथेंस",
  Prague: "پراگ|Prag|Praga|Prága|Прага|Праге|براغ|プラハ|布拉格|프라하|Praha|Praze|פראג|Πράγα|กรุงปราก|प्राग",
  Warsaw:
    "Varsova|Varšava|Varsó|ورشو|Warszawie|Warschau|Varsovie|Varsovia|Varsóvia|Varsavia|Varşova|Варшава|Варшаве|وارسو|ワルシャワ|华沙|바르샤바|ורשה|Βαρσοβία|วอร์ซอ|वारसॉ",
  Milan:
    "میلان|Mailand|Milán|Milão|Mediolan|Милан|Милане|ميلانو|ミラノ|米兰|밀라노|Milano|מילאנו|Μιλάνο|Мілан|มิลาน|मिलान",
  Munich: "Múnich|Munique|Monaco di Baviera|Monachium|Münih|Мюнхен|Мюнхене|ميونخ|ミュンヘン|慕尼黑|뮌헨",
  Cologne: "Colônia|Keulen|Kolonia|Кёльн|Кельн|كولونيا|ケルン|科隆|쾰른",
  Berlin:
    "Berliini|Berlín|Berlijn|Berlino|Берлин|Берлине|برلين|बर्लिन|ベルリン|柏林|베를린|ברלין|Βερολίνο|Берлін|เบอร์ลิน",
  Paris: "Pariisi|پاریس|París|Parigi|Paryż|Париж|Париже|باريس|पेरिस|パリ|巴黎|파리",
  Madrid: "مادرید|Madryt|Мадрид|Мадриде|مدريد|マドリード|马德里|마드리드",
  Moscow: "مسکو|Moskau|Moscou|Moscú|Moscovo|Mosca|Moskou|Moskwa|Moskova|Москва|Москве|موسكو|モスクワ|莫斯科|모스크바",
  London: "Lontoo|Londýn|Londres|Londra|Londen|Londyn|Лондон|Лондоне|لندن|ロンドン|伦敦|런던",
  "New York": "Nueva York|Nova Iorque|Nowy Jork|Нью-Йорк|نيويورك|ニューヨーク|纽约|뉴욕",
  Nairobi:
    "نایروبی|Westlands|Kilimani|Kileleshwa|Найроби|نيروبي|ナイロビ|内罗毕|나이로비|ניירובי|Ναϊρόμπι|Найробі|ไนโรบี|नैरोबी",
  // Districts and suburbs of the catalogue's cities, written as places of their own.
  Lagos:
    "Èkó|لاگوس|Лагос|لاغوس|ラゴス|拉各斯|Ikeja|Lekki|Victoria Island|Ikoyi|Yaba|Surulere|Apapa|לאגוס|ลากอส|लागोस|라고스",
  Istanbul:
    "استانبول|İstanbul|Estambul|Istambul|Stambuł|Стамбул|إسطنبول|イスタンブール|伊斯坦布尔|이스탄불|איסטנבול|Κωνσταντινούπολη|Ισταμπούλ|อิสตันบูล|इस्तांबुल",
  "Mexico City":
    "Mexiko-Stadt|Città del Messico|Cidade do México|Мехико|مكسيكو سيتي|メキシコシティ|墨西哥城|Ciudad de México|CDMX|מקסיקו סיטי|Πόλη του Μεξικού|Мехіко|เม็กซิโกซิตี|मेक्सिको सिटी|멕시코시티",
  "Addis Ababa":
    "አዲስ አበባ|Addis-Abeba|Addis Abeba|Аддис-Абеба|أديس أبابا|亚的斯亚贝巴|אדיס אבבה|Αντίς Αμπέμπα|แอดดิสอาบาบา|아디스아바바",
  Singapore:
    "سنگاپور|Singapur|Singapour|Cingapura|Сингапур|سنغافورة|シンガポール|新加坡|싱가포르|סינגפור|Σιγκαπούρη|Сінгапур|สิงคโปร์|सिंगापुर",
  "São Paulo": "San Pablo|Сан-Паулу|ساو باولو|サンパウロ|圣保罗|סאו פאולו|Σάο Πάολο|เซาเปาลู|상파울루",
  Montréal: "Montreal|Монреаль|مونتريال|モントリオール|蒙特利尔|מונטריאול|Μόντρεαλ|มอนทรีออล|मॉन्ट्रियल|몬트리올",
  Toronto: "Торонто|تورونتو|تورنتو|トロント|多伦多|토론토|טורונטו|Τορόντο|โทรอนโต|टोरंटो",
  Chicago: "شیکاگو|Чикаго|شيكاغو|シカゴ|芝加哥|시카고|שיקגו|Σικάγο|ชิคาโก|शिकागो",
  "Los Angeles":
    "Los Ángeles|Лос-Анджелес|لوس أنجلوس|ロサンゼルス|洛杉矶|로스앤젤레스|לוס אנג'לס|Λος Άντζελες|ลอสแอนเจลิส|लॉस एंजेलिस",
  Amsterdam:
    "آمستردام|Ámsterdam|Amsterdão|Amesterdão|Амстердам|Амстердаме|أمستردام|アムステルダム|阿姆斯特丹|암스테르담|אמסטרדם|Άμστερνταμ|อัมสเตอร์ดัม|एम्स्टर्डम",
  Hanoi: "Hà Nội|Ha Noi|Hanói|Hà Nội|Ханой|هانوي|ハノイ|河内|하노이|האנוי|Ανόι|ฮานอย",
  "Kuala Lumpur":
    "کوالالامپور|Куала-Лумпур|كوالالمبور|クアラルンプール|吉隆坡|쿠알라룸푸르|קואלה לומפור|Κουάλα Λουμπούρ|กัวลาลัมเปอร์|कुआलालंपुर",
  Jakarta: "جاکارتا|Yakarta|Djakarta|Джакарта|جاكرتا|ジャカルタ|雅加达|자카르타|ג'קרטה|Τζακάρτα|จาการ์ตา|जकार्ता",
  Dublin: "Baile Átha Cliath|Dublín|Dublino|Дублин|دبلن|ダブリン|都柏林|더블린|דבלין|Δουβλίνο|Дублін|ดับลิน|डबलिन",
  Oslo: "اسلو|Осло|أوسلو|オスロ|奥斯陆|오슬로|אוסלו|Όσλο|ออสโล|ओस्लो",
  Stockholm:
    "Tukholma|استکهلم|Estocolmo|Stoccolma|Sztokholm|Стокгольм|ستوكهولم|ストックホルム|斯德哥尔摩|스톡홀름|שטוקהולם|Στοκχόλμη|สตอกโฮล์ม|स्टॉकहोम",
  Perth: "เพิร์ธ|פרת'|Перт|بيرث|パース|珀斯|퍼스|Περθ|पर्थ",
  Melbourne: "Мельбурн|ملبورن|メルボルン|墨尔本|멜버른|מלבורן|Μελβούρνη|เมลเบิร์น|मेलबर्न",
  Karachi: "کراچی|Karatschi|Karachí|Карачи|كراتشي|कराची|カラチ|卡拉奇|קראצ'י|Καράτσι|Карачі|การาจี|카라치",
  Dhaka: "داکا|ঢাকা|ঢাকায়|Dacca|Dakka|Дакка|دكا|ढाका|ダッカ|达卡|דאקה|Ντάκα|ธากา",
  Bengaluru: "ಬೆಂಗಳೂರು|Бангалор|بنغالور|बेंगलुरु|ベンガルール|班加罗尔|בנגלור|Μπανγκαλόρ|บังคาลอร์|벵갈루루",
  Santiago: "סנטיאגו|Сантьяго|سانتياغو|サンティアゴ|圣地亚哥|Σαντιάγο|ซานติอาโก|산티아고",
  "Buenos Aires":
    "Буэнос-Айрес|بوينس آيرس|ブエノスアイレス|布宜诺斯艾利斯|בואנוס איירס|Μπουένος Άιρες|Буенос-Айрес|บัวโนสไอเรส|부에노스아이레스",
  Bogotá: "Bogota|Богота|بوغوتا|ボゴタ|波哥大|בוגוטה|Μπογκοτά|โบโกตา|बोगोटा|보고타",
  Casablanca:
    "Dar el Beida|Casablanka|Касабланка|الدار البيضاء|カサブランカ|卡萨布兰卡|קזבלנקה|Καζαμπλάνκα|คาซาบลังกา|कासाब्लांका|카사블랑카",
  Johannesburg:
    "Jozi|eGoli|Johannesburgo|Йоханнесбург|جوهانسبرغ|ヨハネスブルグ|约翰内斯堡|יוהנסבורג|Γιοχάνεσμπουργκ|Йоганнесбург|โจฮันเนสเบิร์ก|요하네스버그",
  Accra: "Акра|أكرا|アクラ|阿克拉|אקרה|Аккра|อักกรา|अक्रा|아크라",
  Abuja: "Абуджа|أبوجا|アブジャ|阿布贾|אבוג'ה|Αμπούτζα|อาบูจา|अबुजा|아부자",
  Lyon: "Lione|Лион|Лионе|ليون|リヨン|里昂|리옹|ליון|Λυών|Ліон",
  Manchester: "Mánchester|Манчестер|مانشستر|マンチェスター|曼彻斯特|מנצ'סטר|Μάντσεστερ|แมนเชสเตอร์|मैनचेस्टर|맨체스터",
  Denver: "Денвер|دنفر|デンバー|丹佛|דנוור|Ντένβερ|เดนเวอร์|덴버",
  Wellington:
    "Te Whanganui-a-Tara|Веллингтон|ولينغتون|ウェリントン|惠灵顿|ולינגטון|Ουέλλινγκτον|Веллінгтон|เวลลิงตัน|वेलिंगटन|웰링턴",
  Quito: "Кито|كيتو|キト|基多|קיטו|Κίτο|Кіто",
  Cusco: "Qusqu|Qosqo|Куско|كوسكو|クスコ|库斯科|קוסקו|Κούσκο|쿠스코",
  Monterrey: "Монтеррей|مونتيري|モンテレイ|蒙特雷|מונטריי|Μοντερέι|มอนเตร์เรย์|몬테레이",
  Lilongwe: "Лилонгве|ليلونغوي|リロングウェ|利隆圭|לילונגווה|Λιλόνγκουε|릴롱궤",
  Vancouver: "Ванкувер|فانكوفر|バンクーバー|温哥华|밴쿠버",
  Delhi: "دهلی|Dehli|Neu-Delhi|New Delhi|दिल्ली|नई दिल्ली|Дели|Нью-Дели|دلهي|نيودلهي|デリー|德里|新德里|델리",
  Bangkok: "بانکوک|กรุงเทพ|กรุงเทพฯ|กรุงเทพมหานคร|Бангкок|بانكوك|バンコク|曼谷|방콕",
  "Ho Chi Minh City":
    "Thành phố Hồ Chí Minh|TP Hồ Chí Minh|TP HCM|Sài Gòn|Хошимин|هو تشي منه|ホーチミン|胡志明市|호찌민",
  Dubai: "دبی|Dubaï|Dubái|Дубай|دبي|ドバイ|迪拜|두바이",
  "Tel Aviv": "Tel-Aviv|Tel Awiw|תל אביב|תל־אביב|Тель-Авив|تل أبيب|テルアビブ|特拉维夫|텔아비브",
  Ankara: "Анкара|أنقرة|アンカラ|安卡拉|앙카라",
  Thessaloniki:
    "Θεσσαλονίκη|Θεσσαλονίκης|Saloniki|Thessalonique|Tesalónica|Salonicco|Салоники|سالونيك|テッサロニキ|塞萨洛尼基",
  Kyiv: "Київ|Києві|Киев|Киеве|Kijów|Kijowie|Kiew|Kiev|Kyjev|كييف|キーウ|基辅|키이우|קייב|Κίεβο",
  Rome: "Řím|Rooma|Рим|Риме|Rzym|Rzymie|روما|ローマ|罗马|로마|רומא|Ρώμη|रोम|โรม",
  Vienna: "Vídeň|Wien|Vienne|Viena|Wiedeń|Wiedniu|Viyana|Вена|Вене|Відень|فيينا|ウィーン|维也纳|빈|וינה|Βιέννη",
  Zurich: "Zürich|Zurigo|Цюрих|زيورخ|チューリッヒ|苏黎世|취리히",
  Barcelona: "Барселона|Барселоне|برشلونة|バルセロナ|巴塞罗那|바르셀로나|ברצלונה|Βαρκελώνη",
  Hamburg: "Hambourg|Hamburgo|Amburgo|Гамбург|هامبورغ|ハンブルク|汉堡|함부르크",
  Frankfurt: "Francfort|Fráncfort|Francoforte|Франкфурт|فرانكفورت|フランクフルト|法兰克福|프랑크푸르트",
  Brussels:
    "Bruxelles|Brussel|Bruselas|Bruxelas|Bruksela|Brüksel|Брюссель|بروكسل|ブリュッセル|布鲁塞尔|브뤼셀|בריסל|Βρυξέλλες",
  Budapest: "Budapeszt|Будапешт|بودابست|ブダペスト|布达佩斯|부다페스트|בודפשט|Βουδαπέστη",
  Kraków: "Krakau|Cracovie|Cracovia|Krakowie|Краков|Краків|كراكوف|クラクフ|克拉科夫",
  Belgrade: "Beograd|Belgrad|Belgrado|Белград|Београд|بلغراد|ベオグラード|贝尔格莱德",
  Tehran: "Teheran|Téhéran|Teherán|Tahran|Тегеран|تهران|طهران|テヘラン|德黑兰|테헤란|טהרן",
  Riyadh: "Riyad|Riade|Эр-Рияд|الرياض|リヤド|利雅得|리야드",
  Doha: "Доха|الدوحة|ドーハ|多哈|도하",
  Beirut: "Beyrouth|Beirute|Bejrut|Бейрут|بيروت|ベイルート|贝鲁特|베이루트",
  Baghdad: "Bagdad|Bagdá|Багдад|بغداد|バグダッド|巴格达|바그다드",
  Jerusalem:
    "Jérusalem|Jerusalén|Gerusalemme|Jerozolima|Kudüs|Иерусалим|القدس|エルサレム|耶路撒冷|예루살렘|ירושלים|Ιερουσαλήμ",
  Lahore: "Лахор|لاہور|لاهور|लाहौर|ラホール|拉合尔",
  Kolkata: "কলকাতা|कोलकाता|Калькутта|كولكاتا|コルカタ|加尔各答",
  Chennai: "சென்னை|चेन्नई|Ченнаи|تشيناي|チェンナイ|金奈",
  Kathmandu: "काठमाडौं|काठमांडू|Katmandu|Катманду|كاتماندو|カトマンズ|加德满都",
  Manila: "Maynila|Манила|مانيلا|マニラ|马尼拉|마닐라",
  "Chiang Mai": "เชียงใหม่|Чиангмай|チェンマイ|清迈|치앙마이",
  Guangzhou: "广州|廣州|Гуанчжоу|广州市|広州|광저우",
  "Hong Kong": "香港|Гонконг|هونغ كونغ|홍콩|הונג קונג|Χονγκ Κονγκ",
  Kyoto: "京都|Киото|كيوتو|교토",
  Busan: "부산|Пусан|釜山|بوسان",
  Sydney: "Сидней|سيدني|シドニー|悉尼|시드니|סידני|Σίδνεϊ|ซิดนีย์|सिडनी",
  "Rio de Janeiro": "Рио-де-Жанейро|ريو دي جانيرو|リオデジャネイロ|里约热内卢|리우데자네이루",
  Lima: "Лима|ليما|リマ|利马|리마",
  Havana: "La Habana|Havanna|La Havane|Avana|Hawana|Гавана|هافانا|ハバナ|哈瓦那",
  "Dar es Salaam": "Dar-es-Salaam|Дар-эс-Салам|دار السلام|ダルエスサラーム|达累斯萨拉姆",
  Kampala: "Кампала|كامبالا|カンパラ|坎帕拉",
  Kigali: "Кигали|كيغالي|キガリ|基加利",
  Dakar: "Дакар|داكار|ダカール|达喀尔",
  Marrakesh: "Marrakech|Marrakesch|Марракеш|مراكش|マラケシュ|马拉喀什",
  Alexandria: "Alexandrie|Alejandría|Alexandria|Alessandria d'Egitto|Александрия|الإسكندرية|アレクサンドリア|亚历山大",
  Kharkiv: "Харків|Харкові|Харьков|Charków|خاركيف|ハルキウ|哈尔科夫",
  Odesa: "Odessa|Одеса|Одесі|Одесса|أوديسا|オデーサ|敖德萨",
  Minsk: "Мінск|Минск|مينسك|ミンスク|明斯克",
  "Saint Petersburg":
    "Sankt Petersburg|Saint-Pétersbourg|San Petersburgo|São Petersburgo|San Pietroburgo|Petersburg|Санкт-Петербург|Петербург|Петербурге|سانت بطرسبرغ|サンクトペテルブルク|圣彼得堡|상트페테르부르크",
  Jeddah: "Dschidda|Djeddah|Джидда|جدة|ジッダ|吉达",
  "Abu Dhabi": "Абу-Даби|أبو ظبي|アブダビ|阿布扎比|아부다비",
  Islamabad: "Исламабад|اسلام آباد|إسلام آباد|इस्लामाबाद|イスラマバード|伊斯兰堡",
  Copenhagen:
    "Kööpenhamina|Kodaň|København|Kopenhagen|Copenhague|Copenaghen|Kopenhaga|Kopenhag|Копенгаген|كوبنهاغن|コペンハーゲン|哥本哈根|코펜하겐",
  Helsinki: "Helsingfors|Хельсинки|هلسنكي|ヘルシンキ|赫尔辛基|헬싱키",
  Porto: "Порту|بورتو|ポルト|波尔图",
  Naples: "Napoli|Neapel|Nápoles|Neapol|Неаполь|نابولي|ナポリ|那不勒斯",
  Venice: "Venezia|Venedig|Venise|Venecia|Veneza|Wenecja|Венеция|البندقية|ヴェネツィア|威尼斯|베네치아",
  Florence: "Firenze|Florenz|Florencia|Florença|Florencja|Флоренция|فلورنسا|フィレンツェ|佛罗伦萨|피렌체"
}

/**
 * Cities that lie in a larger city's metropolitan area, by the names the lists show: work there is
 * within reach of those who work in the larger city ("Greater Cairo" takes in Giza), so a task
 * in one is confined to both. Only places most written as one area.
 */
export const metropolitanAreas: Readonly<Record<string, string>> = {
  Giza: "Cairo",
  Yokohama: "Tokyo",
  Incheon: "Seoul"
}
