/**
 * The catalogue's cities as more of the world's languages and scripts write them, where the name
 * differs from the ones in ./other_names.ts (issue 36, docs/decisions/places-in-every-script.md):
 * Georgian, Armenian, Mongolian and Kazakh Cyrillic, Amharic, Tamil, Telugu, Kannada, Malayalam,
 * Gujarati, Gurmukhi, Devanagari, Bengali, Sinhala, Khmer, Lao, Burmese, Persian, Urdu, Greek,
 * Thai, Korean, traditional Chinese, and the Latin forms of Azerbaijani, Uzbek, Albanian,
 * Icelandic, Estonian, Latvian, Lithuanian, Irish, Welsh, Catalan, Somali and Hausa. Only
 * established names and transliterations: a form nobody could vouch for is left out. The
 * nominative is listed; a case ending or a locative prefix is read by src/domain/places.ts.
 */
export const namesInMoreScripts: Readonly<Record<string, string>> = {
  Cairo:
    "კაირო|Կահիրե|ካይሮ|கெய்ரோ|కైరో|ಕೈರೋ|കെയ്റോ|કૈરો|ਕਾਹਿਰਾ|কায়রো|කයිරෝ|ကိုင်ရို|قاہرہ|開羅|Qahirə|Qohira|Kajro|Kaira|Kairas|El Caire|Qaahira|Alkahira|कैरो",
  Abuja: "აბუჯა|Աբուջա|አቡጃ|আবুজা|அபுஜா|阿布賈",
  Osaka: "ოსაკა|Օսակա|ኦሳካ|ஒசாகா|ওসাকা",
  Monterrey: "მონტერეი|Մոնտերեյ",
  Lagos: "ლაგოსი|Լագոս|ሌጎስ|লাগোস|லாகோஸ்|లాగోస్|Λάγκος|Legas|Lagosa|Lagosas",
  Bucharest: "ბუქარესტი|Բուխարեստ|ቡካሬስት|বুখারেস্ট|புக்கரெஸ்ட்|بخارست|بخارسٹ|Buxarest|Bukuresht|Bukareste|Bukareštas",
  Mumbai: "მუმბაი|Մումբայ|ሙምባይ|মুম্বাই|ముంబై|ಮುಂಬೈ|മുംബൈ|મુંબઈ|ਮੁੰਬਈ|මුම්බායි|ممبئی|孟買",
  Wellington: "ველინგტონი|Ուելինգտոն|威靈頓|ওয়েলিংটন|வெலிங்டன்",
  Istanbul:
    "სტამბოლი|Ստամբուլ|Истанбул|Стамбұл|ኢስታንቡል|ইস্তাম্বুল|இஸ்தான்புல்|استنبول|伊斯坦堡|Stamboll|Stambula|Stambulas|ఇస్తాంబుల్|ഇസ്താംബുൾ|ઇસ્તંબુલ",
  Karachi: "კარაჩი|Կարաչի|করাচি|கராச்சி|ਕਰਾਚੀ|કરાચી|కరాచీ|ಕರಾಚಿ|കറാച്ചി",
  Montréal: "მონრეალი|Մոնրեալ|مونترال|蒙特婁|Mont-real|মন্ট্রিয়ল",
  Bogotá: "ბოგოტა|Բոգոտա|بوگوتا|বোগোতা",
  Shenzhen: "შენჯენი|Շենժեն|شنژن|শেনজেন|シンセン",
  Chicago: "ჩიკაგო|Չիկագո|ቺካጎ|শিকাগো|சிகாகோ|ਸ਼ਿਕਾਗੋ|શિકાગો|شکاگو|చికాగో|ಚಿಕಾಗೊ|ചിക്കാഗോ",
  Cusco: "კუსკო|Կուսկո|庫斯科|กุสโก|कुस्को",
  Athens: "ათენი|Աթենք|አቴንስ|এথেন্স|ஏதென்ஸ்|អាថែន|ایتھنز|Afina|Афина|Афин|Athinë|Aþena|Atėnai|Atenes",
  Manchester: "მანჩესტერი|Մանչեսթեր|منچستر|مانچسٹر|曼徹斯特|ম্যানচেস্টার|மான்செஸ்டர்",
  Oslo: "ოსლო|Օսլո|ኦስሎ|অসলো|奧斯陸|Oslas|ஒஸ்லோ",
  Toronto: "ტორონტო|Տորոնտո|ਟੋਰਾਂਟੋ|ટોરોન્ટો|টরন্টো|டொராண்டோ|ٹورنٹو|多倫多|టొరంటో|ಟೊರಂಟೊ|ടൊറന്റോ|ටොරොන්ටෝ|ቶሮንቶ",
  "Kuala Lumpur": "კუალა-ლუმპური|Կուալա Լումպուր|கோலாலம்பூர்|కౌలాలంపూర్|ക്വാലാലംപൂർ|কুয়ালালামপুর",
  Casablanca: "კასაბლანკა|Կասաբլանկա|کازابلانکا|卡薩布蘭卡|কাসাব্লাঙ্কা|காசாபிளாங்கா",
  Quito: "კიტო|Կիտո|키토|กีโต|क्विटो",
  Nairobi: "ნაირობი|Նայրոբի|ናይሮቢ|নাইরোবি|நைரோபி|နိုင်ရိုဘီ|奈洛比|Nayroobi|నైరోబి|നെയ്റോബി|નૈરોબી|ਨੈਰੋਬੀ",
  Prague: "პრაღა|Պրահա|ፕራግ|প্রাগ|Praqa|Pragë",
  Tokyo: "ტოკიო|Տոկիո|ቶኪዮ|টোকিও|டோக்கியோ|టోక్యో|ടോക്കിയോ|ટોક્યો|ਟੋਕੀਓ|ටෝකියෝ|តូក្យូ|ໂຕກຽວ|ٹوکیو|Tokija|Tokijas|ಟೋಕಿಯೊ",
  Stockholm: "სტოკჰოლმი|Ստոկհոլմ|斯德哥爾摩|Stokkhólmur|Stokholma|Stokholmas|Stokholm|Stokgolm|Estocolm|স্টকহোম|ஸ்டாக்ஹோம்",
  Denver: "დენვერი|Դենվեր|डेनवर",
  "Los Angeles":
    "ლოს-ანჯელესი|Լոս Անջելես|ሎስ አንጀለስ|لس‌آنجلس|لاس اینجلس|洛杉磯|లాస్ ఏంజిల్స్|ಲಾಸ್ ಏಂಜಲೀಸ್|ലോസ് ആഞ്ചലസ്|લોસ એન્જલસ|ਲਾਸ ਏਂਜਲਸ|ලොස් ඇන්ජලීස්|லாஸ் ஏஞ்சலஸ்|লস অ্যাঞ্জেলেস",
  Lisbon: "ლისაბონი|Լիսաբոն|লিসবন|லிஸ்பன்|Lisbonë|Lisabona|Liospóin",
  Berlin: "ბერლინი|Բեռլին|በርሊን|বার্লিন|பெர்லின்|బెర్లిన్|ಬರ್ಲಿನ್|ബെർലിൻ|બર્લિન|ਬਰਲਿਨ|බර්ලින්|برلن|Berlīne|Berlynas|Beirlín|Berliin",
  Accra: "აკრა|Աքրա|አክራ|আক্রা|Άκρα|அக்ரா",
  Perth: "პერთი|Պերտ",
  Taipei: "ტაიბეი|Թայփեյ|তাইপেই|タイペイ|தைப்பே",
  "Mexico City": "მეხიკო|Մեխիկո|مکزیکوسیتی|Ciutat de Mèxic|Mehhiko|Meksikas|মেক্সিকো সিটি|மெக்சிகோ நகரம்",
  Lyon: "ლიონი|Լիոն|ลียง|Lió|लियोन",
  "Buenos Aires": "ბუენოს-აირესი|Բուենոս Այրես|بوئنوس آیرس|布宜諾斯艾利斯|বুয়েনোস আইরেস|ब्यूनस आयर्स",
  "Addis Ababa": "ადის-აბება|Ադիս Աբեբա|阿迪斯阿貝巴|আদ্দিস আবাবা|अदीस अबाबा|アディスアベバ|அடிஸ் அபாபா",
  Hanoi: "ჰანოი|Հանոյ|ហាណូយ|ຮ່າໂນ້ຍ|河內|হ্যানয়|हनोई|ஹனோய்",
  Dublin: "დუბლინი|Դուբլին|دوبلین|Dulyn|Dublina|Dublinas|டப்ளின்|ডাবলিন",
  Dhaka: "დაკა|Դաքքա|டாக்கா|ڈھاکہ|達卡|다카|ఢాకా|ಢಾಕಾ|ധാക്ക|ઢાકા|ਢਾਕਾ",
  Melbourne: "მელბურნი|Մելբուռն|墨爾本|మెల్బోర్న్|ಮೆಲ್ಬರ್ನ್|മെൽബൺ|મેલબોર્ન|මෙල්බර්න්|மெல்பேர்ண்|மெல்பர்ன்|মেলবোর্ন",
  Seoul: "სეული|Սեուլ|Сөүл|ሴኡል|সিউল|சியோல்|សេអ៊ូល|Seula|Seulas|సియోల్",
  Bengaluru: "ბანგალორი|பெங்களூரு|బెంగళూరు|ബെംഗളൂരു|બેંગલુરુ|বেঙ্গালুরু|بنگلور|班加羅爾",
  Jakarta: "ჯაკარტა|Ջակարտա|雅加達|ஜகார்த்தா|জাকার্তা",
  Singapore:
    "სინგაპური|Սինգապուր|சிங்கப்பூர்|সিঙ্গাপুর|සිංගප්පූරුව|សិង្ហបុរី|ສິງກະໂປ|စင်ကာပူ|Singapura|సింగపూర్|ಸಿಂಗಾಪುರ|സിംഗപ്പൂർ|સિંગાપોર|ਸਿੰਗਾਪੁਰ|ሲንጋፖር",
  "São Paulo": "სან-პაულუ|Սան Պաուլու|سائوپائولو|聖保羅|সাও পাওলো|साओ पाउलो",
  Amsterdam: "ამსტერდამი|Ամստերդամ|Amsterdama|Amsterdamas|ஆம்ஸ்டர்டம்|আমস্টারডাম",
  Johannesburg: "იოჰანესბურგი|Յոհանեսբուրգ|ژوهانسبورگ|約翰尼斯堡|জোহানেসবার্গ|जोहान्सबर्ग|ஜோகன்னஸ்பர்க்",
  Milan: "მილანი|Միլան|米蘭|Milà|Milāna|Milanas|মিলান|மிலன்",
  Lilongwe: "ლილონგვე|Լիլոնգվե|ลิลองเว|लिलोंग्वे",
  Warsaw: "ვარშავა|Վարշավա|ዋርሶ|Варшав|Varshava|Varshavë|Varsjá|Varšuva|Varssavi|Vársá|வார்சா|ওয়ারশ",
  Santiago: "სანტიაგო|Սանտյագո|سانتیاگو|সান্তিয়াগো|सैंटियागो"
}
