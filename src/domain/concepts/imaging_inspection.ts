/** Imaging, and inspection and checks on site (the concept layer's data: src/domain/concepts/work.ts says how it is read). */
import type { Concept } from "./concept.ts"

export const imagingAndInspection: ReadonlyArray<Concept> = [
  // Imaging.
  {
    concept: "photography",
    work: true,
    family: "imaging",
    en: "photo photos photograph photographs photographer photographers photography photographing photographic picture pictures pic pics snapshot snap shoot shoots shot shots packshot packshots",
    stems:
      "फोटो$ ፎቶ$ फोटो ፎቶ புகைப்பட picha$ צילום צלם ถ่ายภาพ ช่างภาพ ถ่ายรูป foto fotograf photograph immagin imagen imagem zdjęc zdjec fotoğraf фото сним تصوير صور फोटो तस्वीर 写真 撮影 照片 拍摄 摄影 拍照 사진 촬영 φωτογραφ chup-anh nhiep-anh piga-picha fenykep fénykép fotoz ছবি ফটো valokuv عکاس فوتوگراف litrato kuhanan-ng-larawan فوٹو مصور फ़ोटोग्राफ़र फोटोग्राफर カメラマン"
  },
  {
    concept: "retouching",
    work: true,
    family: "imaging",
    mode: "digital",
    en: "retouch retouching retouched retoucher photo-editor photo-editors photo-editing image-editing image-editor",
    stems:
      "retusch retouch retoque ritocc retus rötuş rotus ретуш रीटच 修图 修圖 レタッチ 보정 ריטוש ρετουσ รีทัช chinh-sua-anh"
  },
  {
    // Cutting a picture out of its background: one operation of retouching, named for itself
    // ("scontornare", "détourage", "Freisteller", "抠图"). Photographers who retouch their own
    // shots may do it too, so it is shared work: it does not turn them away. Whose record names
    // it works on backgrounds too ("Edit the background of product photos").
    concept: "background-removal",
    work: "shared",
    includes: ["background"],
    family: "imaging",
    mode: "digital",
    en: "background-removal background-removals remove-background remove-backgrounds remove-the-background removing-the-background removing-backgrounds cutout cutouts cut-out clipping clipping-path clipping-paths knockout",
    stems:
      "freistell hintergrund-entfern détourage detourage détourer detourer scontorn recortar-el-fondo quitar-el-fondo quitar-fondo eliminar-el-fondo eliminar-fondo remover-o-fundo remover-fundo recorte-de-fundo rimozione-sfondo rimuovere-lo-sfondo achtergrond-verwijder usuwanie-tla usunięcie-tła usuniecie-tla wycinanie-tla arka-plan-kald удаление-фона удалить-фон видалення-фону إزالة-الخلفية 抠图 摳圖 去背景 背景削除 切り抜き 누끼 배경-제거 הסרת-רקע αφαιρεση-φοντου ลบพื้นหลัง xoa-phong hapus-latar"
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
    en: "illustration illustrations illustrate illustrator draw draws drawing drawings drawn sketch sketches sketching",
    stems:
      "illustr ilustr zeichn dessin dibuj disegn desenh tekening rysun rysow kresl kreslen çizim cizim иллюстр رسم चित्र イラスト 插画 插圖 일러스트 איור εικονογραφ ภาพประกอบ ілюстрац ilustra minh-hoa michoro kuvitu kuvitt ilusztr تصویرساز illusztr מאייר تصویرگر ілюстр"
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
    en: "scout scouting scouts location-manager location-managers location-scout location-scouts",
    stems: "locacion locación location-scout repérag reperag sopraluogh motivsuch поиск-локац пошук-локац איתור-לוקיישנ"
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
    // An inspector verifies what they are sent to see (that an address is real, a state as stated).
    includes: ["verification"],
    mode: "physical",
    en: "inspection inspections inspect inspected inspector inspectors inspecting",
    stems:
      "patikrin parbaud ምርመራ pregled בדיקה בודק επιθεωρ ตรวจสอบ перевірк inspek inspect inspecc inspeç inspez prüfung prufung prüf begutacht controll contrôl control keuring inspectie kontrol przeglad przegląd denetim muayene осмотр فحص تفتيش निरीक्षण 点検 検査 检查 檢查 점검 kukagua ukaguzi kagua$ kiem-tra ellenor ellenőr পরিদর্শন tarkast besiktn بازرس معاين فحوص"
  },
  {
    concept: "audit",
    work: "shared",
    family: "inspection",
    en: "audit audits auditing auditor merchandiser merchandisers merchandising",
    stems: "audit auditor auditoría auditoria denetim аудит تدقيق-ميداني ऑडिट 監査 审核 審核 감사"
  },
  {
    // Driving a vehicle to judge it: what a boundary rules out ("No test drives on public roads")
    // in whatever language the task says it.
    concept: "test-drive",
    family: "inspection",
    mode: "physical",
    en: "test-drive test-drives test-driving test-driven road-test road-tests how-it-drives how-it-rides for-a-spin",
    stems:
      "prueba-de-manejo prueba-de-conduccion prueba-de-ruta probefahrt essai-routier essai-sur-route test-drive jazda-probna jazdy-probnej proefrit test-surusu тест-драйв тест-драйва пробная-поездка اختبار-قيادة टेस्ट-ड्राइव 试驾 試乗 시승 נסיעת-מבחן"
  },
  {
    concept: "road",
    family: "inspection",
    en: "road roads highway highways motorway motorways freeway freeways public-road public-roads",
    stems:
      "carretera carreteras autopista autobahn landstrasse autoroute estrada rodovia autostrada snelweg autostrad otoyol шоссе трасс طريق-سريع राजमार्ग 公路 高速公路 高速道路 고속도로 כביש"
  },
  {
    concept: "vehicle",
    family: "inspection",
    mode: "physical",
    en: "vehicle vehicles car cars automobile truck trucks pickup-truck pickup-trucks used-pickup used-pickups second-hand-pickup suv suvs van vans hatchback hatchbacks sedan sedans saloon minivan minivans jeep odometer mileage bodywork obd obd-ii obd2 diagnostic-scanner diagnostic-scan fault-code fault-codes mechanic mechanics brake brakes brake-pad brake-pads tyre tyres tire tires clutch gearbox",
    stems:
      "fahrzeug auto$ autos pkw$ mechaniker kfz-mechan automechan mécanicien mecanicien mecánico mecanico mecânico meccanico monteur$ автомеханик ميكانيكي मैकेनिक 整備士 정비사 מכונאי gebrauchtwag wagen$ kilometerstand voiture véhicul vehicul coche coches carro carros macchina auto's samochod samochód araç arac автомоб машин سيارة गाड़ी कार 車 车 汽车 자동차 רכב αυτοκινητ รถยนต์ masin xe-hoi o-to gari$ magari autó$ gepjarmu gépjármű bil$ bilen$ bilar$ mobil$ خودرو ماشین mekaanik mekaniker mechanik mecanic montir מוסכניק مکانیک механік механик"
  },
  {
    // What a device or a car reports, not software work: "error codes" alone say neither.
    concept: "error-code",
    en: "error-code error-codes trouble-code trouble-codes dtc dtcs",
    stems:
      "fehlercode code-erreur codes-erreur codigo-de-error codigos-de-error código-de-erro codigo-de-erro codice-errore kod-bledu kody-bledow hata-kodu код-ошибки коды-ошибок"
  },
  {
    concept: "electrical",
    family: "inspection",
    mode: "physical",
    en: "electrical electric electrician electricity wiring socket sockets appliance appliances electrical-installation electrical-installations fuse-box distribution-board",
    stems:
      "проводк elektr électri electri eléctri eletric elettric elektrik электр كهرب बिजली 電気 电气 電氣 电工 전기 חשמל ηλεκτρ ไฟฟ้า електр umeme villany sähkö sahko listrik dien$ برق इलेक्ट्रीशियन"
  },
  {
    concept: "solar",
    family: "inspection",
    mode: "physical",
    // A solar farm or park is panels, not a farm.
    en: "solar pv photovoltaic solar-farm solar-park solar-plant",
    stems:
      "solar zonnepane zonne photovolt fotovolt güneş gunes солнеч شمسي सौर 太陽光 太阳能 태양광 โซลาร์ โซล่าร์ סולאר ηλιακ φωτοβολτα сонячн pin-mat-troi napelem"
  },
  {
    concept: "panel",
    en: "panel panels array arrays",
    stems: "paneel panel panneau pannell painel modul แผง"
  },
  {
    concept: "drone",
    family: "inspection",
    mode: "physical",
    en: "drone drones uav",
    stems: "drohn drone dron дрон طائرة-مسيرة ड्रोन ドローン 无人机 無人機 드론 רחפן โดรน безпілотн flycam"
  },
  {
    concept: "thermal",
    en: "thermal infrared thermography",
    stems: "wärmebild warmebild thermi térmic termic termogra тепловиз حراري 赤外線 热成像 열화상"
  },
  {
    concept: "property",
    family: "inspection",
    en: "real-estate apartment apartments flat flats house houses property properties rental rentals room rooms",
    stems:
      "stanovanj stan$ kuca$ kucu$ chumba$ vyumba$ wohnung immobil appartement logement departamento apartamento piso$ casa$ appartamento woning mieszkan daire квартир شقة مكان-سكن मकान फ्लैट アパート 公寓 房屋 아파트 דירה דירות nyumba kupangisha kupanga$ διαμερισμ ακινητ อพาร์ตเมนต์ บ้านเช่า apartament locuint can-ho nha-cho-thue lakas lakás ingatlan lägenhet lagenhet byt$ bytu$ apartemen آپارتمان"
  },
  {
    concept: "meter",
    family: "inspection",
    mode: "physical",
    en: "meter meters",
    stems:
      "mita$ zähler zahler compteur contador contatore medidor meterstand licznik sayaç sayac счётчик счетчик عداد मीटर メーター 电表 계량기"
  },
  {
    concept: "accessibility",
    family: "inspection",
    en: "accessibility accessible a11y wheelchair step-free barrier barriers wcag",
    stems:
      "barrierefrei rollstuhl accessib accesib acessib fauteuil-roulant silla-de-ruedas cadeira-de-rodas toegankelijk rolstoel dostępn dostepn erişileb erisileb доступн إمكانية-الوصول सुलभता アクセシビリティ 无障碍 無障礙 접근성 נגישות προσβασιμ accesibil tiep-can ufikiaji saavutettav tillgänglig tillganglig přístupn pristupn akadálymentes akadalymentes aksesibilit دسترسی-پذیر"
  },
  {
    // What an access audit measures on site.
    concept: "door",
    family: "inspection",
    en: "door doors doorway doorways",
    stems:
      "türen porte$ portes puerta puertas porta$ portas deur deuren drzwi kapı$ kapıl двер باب دروازه दरवाज ドア 出入口 문틀 דלת πορτα ประตู mlango milango ajtó ajto"
  },
  {
    concept: "ramp",
    family: "inspection",
    en: "ramp ramps",
    stems: "rampe rampa rampy rampen рамп пандус منحدر रैंप スロープ 坡道 경사로 רמפה ραμπα ทางลาด"
  },
  {
    concept: "measurement",
    en: "measure measures measured measuring measurement measurements",
    stems:
      "messung vermess ausmess mesur medir medición medicion misura misurar meting opmeten pomiar zmierz zmierzy ölçü olcu измер вимір قياس माप 測定 测量 測量 측정 מדיד μετρ วัดขนาด do-dac kupima"
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
  }
]
