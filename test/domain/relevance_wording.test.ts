// Words that say the work in other words (issue 36): handing a file back or posting it is no
// courier's work, a shared screen and a street say where the work is, a word of one language is
// not read as another's work, a customer posing as any other is mystery shopping, writing signed
// by someone else is ghostwriting, and taking a car out to see how it drives is a test drive.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { searchDirectory } from "../../src/domain/directory_search.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { inferExecutionMode } from "../../src/domain/task_inference.ts"
import { keysOf } from "../../src/domain/words.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)
const slugsFor = (text: string, directory: ReadonlyArray<ParticipantRecord> = sample) =>
  searchDirectory(text, directory, 10).matches.map((m) => m.participant.slug)

describe("returning work is no errand", () => {
  it("handing a text back or in, or posting it, is no courier's work and says nothing of where", () => {
    for (const text of [
      "Edit my thesis and hand it back by Friday",
      "Check the figures in our budget and hand them back",
      "Post us the finished drawings"
    ]) {
      expect(keysOf(text)).not.toContain("~courier")
      expect(keysOf(text)).not.toContain("~content")
    }
    expect(inferExecutionMode("Copy-edit the chapter and hand it back with comments")).toBe("digital")
    // Handing a thing to someone is still carrying it there.
    expect(keysOf("Hand the keys to the new tenant")).toContain("~courier")
  })
})

describe("where the work is, said in other words", () => {
  it.each([
    ["Troubleshoot the printer settings over a screen share", "digital"],
    ["Walk our staff through the accounting software in a remote session", "digital"],
    ["Zähle die Leihräder auf der Straße", "physical"],
    ["Contar los patinetes en la calle", "physical"],
    ["Compter les vélos dans la rue", "physical"],
    // Going there, said as people say it, in any language.
    ["Swing by the warehouse and count the pallets", "physical"],
    ["Pop into three pharmacies and ask if they stock our cream", "physical"],
    ["Knock on doors in the neighbourhood and ask about internet access", "physical"],
    ["Acudir a la oficina y entregar los papeles", "physical"],
    ["Passer à la boutique et vérifier l'affichage des prix", "physical"],
    ["Vorbeigehen und das Schaufenster fotografieren", "physical"],
    ["Pójść do sklepu i sprawdzić ceny", "physical"],
    ["Сходить в магазин и проверить цены", "physical"],
    ["店に行って価格を確認してください", "physical"],
    ["दुकान जाकर कीमतें जांचें", "physical"],
    ["Pergi ke toko dan periksa harganya", "physical"],
    // Working from home, or handing work over through a shared drive, said in any language.
    ["Work from home on this, no travel needed", "digital"],
    ["Share the finished file through Dropbox", "digital"],
    ["Lavoro da casa: correggere un documento", "digital"],
    ["在宅で：エクセルの表を整理する", "digital"],
    ["घर से काम: एक्सेल शीट साफ़ करें", "digital"],
    // By phone or by e-mail, and face to face, in any language.
    ["Entrevistas por teléfono a 30 clientes", "digital"],
    ["Interviews téléphoniques avec 20 clients", "digital"],
    ["Wywiady telefoniczne z klientami", "digital"],
    ["Телефонные интервью с клиентами", "digital"],
    ["对客户进行电话访谈", "digital"],
    ["Phỏng vấn qua điện thoại với khách hàng", "digital"],
    ["Schicken Sie die Ergebnisse per E-Mail", "digital"],
    ["Entrevistas cara a cara con clientes", "physical"],
    ["Wywiady twarzą w twarz z klientami", "physical"],
    ["Yüz yüze görüşmeler", "physical"],
    ["面对面访谈", "physical"],
    ["Wawancara tatap muka", "physical"],
    // To photograph, the verb, is to be there; photos, the noun, are what comes back.
    ["Fotografiar la fachada del edificio", "physical"],
    ["Sfotografować elewację budynku", "physical"],
    ["Сфотографировать фасад здания", "physical"],
    ["建物の外観を撮影する", "physical"],
    ["拍摄大楼外观照片", "physical"]
  ])("%s → %s", (text, mode) => {
    expect(inferExecutionMode(text)).toBe(mode)
  })
})

describe("what comes back says where the work is only when nothing else does", () => {
  it("a file or its format: at a desk alone, on site with a place or work done there", () => {
    expect(inferExecutionMode("Send the cleaned list back as a CSV file")).toBe("digital")
    expect(inferExecutionMode("Pictures of every storefront on one street, as JPEGs", true)).toBe("physical")
    expect(inferExecutionMode("Thermal images of the solar panels on our roof, as PNG files")).toBe("physical")
    // Work done on a file is still online work.
    expect(inferExecutionMode("Transcribe the interview and send it as a DOCX", true)).toBe("digital")
  })

  it("markets, malls and stalls are somewhere to be when one is at or outside them, not 'in the market'", () => {
    expect(inferExecutionMode("Research what rice costs at markets in Dhaka")).toBe("hybrid")
    expect(inferExecutionMode("Survey shoppers outside malls and note their answers")).toBe("physical")
    expect(inferExecutionMode("Research trends in the Brazilian market")).toBe("digital")
  })

  it("a shop is a premises: somewhere to be when nothing else says where, unless it is the one the work is for", () => {
    expect(inferExecutionMode("Count how many people enter the store in an hour")).toBe("physical")
    expect(inferExecutionMode("Contar clientes en la tienda")).toBe("physical")
    expect(inferExecutionMode("Write product descriptions for our store")).toBeNull()
    expect(inferExecutionMode("Escribir descripciones de productos para nuestra tienda")).toBeNull()
    expect(inferExecutionMode("Produkttexte für unseren Laden schreiben")).toBeNull()
  })

  it("typing things into a file is data entry", () => {
    expect(keysOf("Type them into a spreadsheet")).toContain("~data-entry")
  })
})

describe("a word of one language is not read as another language's work", () => {
  it('Vietnamese "khách hàng" (customer) is no fitter\'s "hang", "cửa hàng" a shop, "ngân hàng" a bank', () => {
    expect(keysOf("Gọi điện cho khách hàng")).not.toContain("~installation")
    expect(keysOf("Kiểm tra giá ở cửa hàng")).toContain("~store")
    expect(keysOf("Mở tài khoản ngân hàng")).toContain("~bank")
    expect(keysOf("Hang a mirror in the hallway")).toContain("~installation")
  })

  it("photos, the noun, say nothing of where", () => {
    expect(inferExecutionMode("Fotos de producto sobre fondo blanco")).toBeNull()
  })

  it('a "Chef" in German and a "chef de projet" in French are bosses, not cooks; an English chef for a dinner cooks', () => {
    expect(keysOf("Den Brief an unseren Chef übersetzen")).not.toContain("~cooking")
    expect(keysOf("Traduire le rapport du chef de projet")).not.toContain("~cooking")
    expect(keysOf("Need a chef for a birthday dinner")).toContain("~cooking")
    expect(keysOf("Hire a private chef")).toContain("~cooking")
  })

  it('Spanish and Portuguese "mover" moves anything; movers for a house move are a trade', () => {
    expect(keysOf("Mover los datos de la hoja de cálculo a otra")).not.toContain("~moving-house")
    expect(keysOf("Mover os arquivos para a pasta nova")).not.toContain("~moving-house")
    expect(keysOf("Hire movers for our office move")).toContain("~moving-house")
  })

  it('French "composé", Spanish "componentes" and German "beste" are no music; composing a jingle is', () => {
    expect(keysOf("Le rapport est composé de trois parties")).not.toContain("~music-composition")
    expect(keysOf("Probar los componentes del cargador")).not.toContain("~music-composition")
    expect(keysOf("Die beste Übersetzung finden")).not.toContain("~music-composition")
    expect(keysOf("Compose a jingle for our radio ad")).toContain("~music-composition")
    expect(keysOf("Musik komponieren für ein Video")).toContain("~music-composition")
  })

  it("Vietnamese: a trade's name is read whole (chuyển nhà, moving house; not chuyển, to transfer), dịch is to translate, dịch vụ a service", () => {
    expect(keysOf("Chuyển tiền và chuyển file sang PDF")).not.toContain("~moving-house")
    expect(keysOf("Chuyển nhà trong tuần này")).toContain("~moving-house")
    expect(keysOf("Làm xong trước sáng thứ hai")).not.toContain("~gardening")
    expect(keysOf("Dịch hợp đồng sang tiếng Anh")).toContain("~translation")
    expect(keysOf("Dịch vụ chuyển phát nhanh")).not.toContain("~translation")
  })

  it('German "streichen" is also to strike out, Korean 도장 also a seal: no painting job', () => {
    expect(keysOf("Überflüssige Sätze streichen")).not.toContain("~painting-decorating")
    expect(keysOf("서류에 도장 받기")).not.toContain("~painting-decorating")
    expect(keysOf("Die Wände streichen")).toContain("~painting-decorating")
  })

  it("a school, shop signs, a father: no lessons, painting job or nanny", () => {
    expect(keysOf("توصيل الكتب إلى مدرسة")).not.toContain("~tutoring")
    expect(keysOf("Die Schilder am Laden prüfen")).not.toContain("~painting-decorating")
    expect(keysOf("Nyaraka za baba yangu")).not.toContain("~childcare")
    expect(keysOf("Huis schilderen")).toContain("~painting-decorating")
  })

  it("an e-mail, in any language, is a way of handing work over, not electrical work", () => {
    expect(keysOf("Enviar el informe por correo electrónico")).not.toContain("~electrical")
    expect(keysOf("Inviare il file per posta elettronica")).not.toContain("~electrical")
    expect(keysOf("Revisar la instalación eléctrica")).toContain("~electrical")
  })

  it('Polish "napisz" (write) is writing, "napisy" captions', () => {
    expect(keysOf("Napisz krótki tekst o firmie")).toContain("~writing")
    expect(keysOf("Napisz krótki tekst o firmie")).not.toContain("~captioning")
    expect(keysOf("Napisy do filmu po polsku")).toContain("~captioning")
  })

  it('French "rédiger" is to write, German "redigieren" and Swedish "redigera" to edit', () => {
    expect(keysOf("Rédiger un article sur nos produits")).toContain("~writing")
    expect(keysOf("Rédiger un article sur nos produits")).not.toContain("~editing")
    expect(keysOf("Einen Text redigieren")).toContain("~editing")
    expect(keysOf("Redigera vår text")).toContain("~editing")
  })

  it('French "noter" (to note) is no notary; Turkish\'s notary, in its case forms, is', () => {
    expect(keysOf("Relever et noter les prix du lait")).not.toContain("~notary")
    expect(keysOf("Noterde vekaletname onaylatmak")).toContain("~notary")
    expect(keysOf("Noter onaylı tercüme")).toContain("~notary")
  })
})

describe("short words listed whole, read when inflected", () => {
  it("Tamil: a shop and a price with case endings and plurals; the sea is no shop", () => {
    for (const word of ["கடையில்", "கடையை", "கடைக்கு", "கடைகளில்"]) expect(keysOf(word)).toContain("~store")
    expect(keysOf("விலைகள்")).toContain("~price")
    expect(keysOf("கடல்")).not.toContain("~store")
  })

  it("Amharic: prepositions written onto a word, the plural, the definite and the object", () => {
    for (const word of ["በሱቅ", "ሱቆች", "ሱቁ"]) expect(keysOf(word)).toContain("~store")
    expect(keysOf("ዋጋውን")).toContain("~price")
    expect(keysOf("ፎቶዎችን")).toContain("~photography")
  })
})

describe("work said in other words", () => {
  it("checking a thing is genuine is done with it in hand, unless the wording says otherwise", () => {
    expect(inferExecutionMode("Confirm the sneakers we bought are genuine")).toBe("physical")
    expect(inferExecutionMode("Check online whether the listing's photos are genuine")).toBe("digital")
  })

  it("research said to be in the field is done on site", () => {
    for (const text of [
      "Field research on street food vendors",
      "Trabajo de campo sobre vendedores ambulantes",
      "Feldforschung zu Straßenhändlern"
    ])
      expect(inferExecutionMode(text)).not.toBe("digital")
    expect(inferExecutionMode("Feldforschung zu Straßenhändlern")).toBe("physical")
  })

  it("posing as an ordinary customer, in any language, is mystery shopping", () => {
    for (const text of [
      "Se présenter comme un client ordinaire dans nos agences",
      "Als anonymer Kunde drei Filialen besuchen",
      "Visitar las sucursales como cliente anónimo",
      "Visit our branches as an anonymous customer"
    ])
      expect(keysOf(text)).toContain("~mystery-shopping")
  })

  it("writing that someone else will sign as their own is ghostwriting, in any language; a name alone is not", () => {
    for (const text of [
      "Write a speech the mayor will give as her own",
      "Write a blog post I will publish under my name",
      "Einen Artikel schreiben, der unter dem Namen meiner Chefin erscheint",
      "Napisz artykuł, który podpiszę pod moim nazwiskiem",
      "Rédiger un discours que la ministre prononcera sous son nom"
    ]) {
      expect(keysOf(text)).toContain("~ghostwriting")
      expect(keysOf(text)).not.toContain("~writing")
    }
    // Under someone's name a few words on, in any language: a possessive before it, or "of" after.
    for (const text of [
      "Write an essay to go out under our chairwoman's name",
      "Write a letter to the editor under the name of our director",
      "Napisz komentarz pod nazwiskiem naszego prezesa"
    ])
      expect(keysOf(text)).toContain("~ghostwriting")
    expect(keysOf("Write a press release about the firm trading under the name Acme")).not.toContain("~ghostwriting")
    expect(keysOf("Register the company under her name")).not.toContain("~ghostwriting")
    expect(keysOf("Write the release notes")).not.toContain("~ghostwriting")
  })

  it("nobody here ghostwrites: the fact-checker is not offered it, whoever does is", () => {
    expect(slugsFor("Write a column on Polish politics that our chairman will publish as his own")).toEqual([])
    const ghostwriter: ParticipantRecord = {
      slug: "pen-hire",
      name: "Pen Hire",
      discipline: "Ghostwriting",
      location: "Leeds, United Kingdom",
      task_type: "digital",
      tags: ["ghostwriting", "speeches"],
      capabilities: ["Articles and speeches in the client's voice"],
      returns: "A draft in Word, two revision rounds.",
      boundary: null
    }
    expect(
      slugsFor("Write a column on Polish politics that our chairman will publish as his own", [...sample, ghostwriter])
    ).toEqual(["pen-hire"])
  })

  it("taking a car out to see how it drives is a test drive, refused by who takes none on public roads", () => {
    expect(keysOf("Take the van for a spin on the motorway")).toEqual(expect.arrayContaining(["~test-drive", "~road"]))
    const found = searchDirectory("Check a used car in Monterrey and see how it drives on the highway", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Alejandro Ruiz \(alejandro-ruiz\), whose work fits this task best, rules it out/)
  })
})

describe("a word of one thing not read as another", () => {
  it("a solar farm or park is panels, not a farm, and is on site", () => {
    for (const text of ["Inspect the panels at a solar farm", "Thermal survey of a solar park"]) {
      expect(keysOf(text)).toContain("~solar")
      expect(keysOf(text)).not.toContain("~agriculture")
    }
    expect(keysOf("Survey maize plots on a farm")).toContain("~agriculture")
  })
  it("flagging and being normal are everyday words; flagged posts and normalising data are work", () => {
    expect(keysOf("Flag any cracked cells you find")).not.toContain("~moderation")
    expect(keysOf("Review the flagged comments")).toContain("~moderation")
    expect(keysOf("Order as a normal guest would")).not.toContain("~deduplication")
    expect(keysOf("Normalise the addresses in the sheet")).toContain("~deduplication")
    expect(keysOf("Normalización de direcciones")).toContain("~deduplication")
  })
  it("a long Greek word is one word, not read part by part (no shelf inside 'ορθογραφία')", () => {
    expect(keysOf("Έλεγχος ορθογραφίας")).not.toContain("~shelf")
    expect(keysOf("Έλεγχος ορθογραφίας")).toContain("~proofreading")
    expect(keysOf("Проверка правописания")).toContain("~proofreading")
    // German compounds are still read part by part.
    expect(keysOf("Regalpreise")).toContain("~shelf")
  })
  it("a voice recorded, said as Spanish, Portuguese, French and Italian say it, is voice work", () => {
    for (const text of [
      "Grabar la voz de un anuncio",
      "Voz en off para un video",
      "Gravar a voz do comercial",
      "Une voix off pour la vidéo",
      "Voce fuori campo per uno spot"
    ]) {
      expect(keysOf(text)).toContain("~voice")
    }
  })
})

describe("work said in everyday words", () => {
  it("a newspaper called a tribune is no court, a registry no government office", () => {
    expect(keysOf("Quote from the Herald Tribune")).not.toContain("~court")
    expect(keysOf("File the appeal at the tax tribunal")).toContain("~court")
    expect(keysOf("Check the land registry")).not.toContain("~government-office")
    expect(keysOf("Pull the record from the companies registry")).toContain("~company-registry")
  })
  it("a customer like any other, in several languages, is mystery shopping", () => {
    for (const text of [
      "Visit the branch as an ordinary customer and rate the queue",
      "Book a table like any normal guest and note the wait",
      "Besuche die Filiale als normaler Kunde",
      "Ir a la tienda como cliente normal"
    ]) {
      expect(keysOf(text)).toContain("~mystery-shopping")
    }
  })
  it("reviews written to praise a business are fake reviews", () => {
    for (const text of [
      "Write reviews of our hotel on Tripadvisor",
      "Leave glowing feedback for our shop",
      "Escribir reseñas de nuestro bar"
    ]) {
      expect(keysOf(text)).toContain("~fake-reviews")
    }
    expect(slugsFor("Post positive reviews of our cafe on Google Maps")).toEqual([])
  })
  it("Swahili's words for repairing are a handyman's work", () => {
    expect(keysOf("Kurekebisha mlango wa jikoni")).toContain("~handyman")
  })
  it("building an app or a website, no other work named, is development nobody here does", () => {
    expect(keysOf("Develop a website for our dental clinic")).toContain("~web-development")
    expect(keysOf("Build an Android app for our taxi firm")).toContain("~web-development")
    expect(slugsFor("Build an Android app for our taxi firm")).toEqual([])
    // Testing what developers built is testing.
    expect(keysOf("Test the Android app our developers built")).not.toContain("~web-development")
    expect(slugsFor("Test the Android app our developers built")[0]).toBe("kwame-asante")
  })
})

describe("where an app, a code and a town put the work", () => {
  it("an app asked about at shops in a place named is asked about there; compared against a street count it is both", () => {
    expect(inferExecutionMode("Ask stallholders in Nairobi which mobile money apps they take", true)).toBe("physical")
    expect(inferExecutionMode("Preguntar a los tenderos qué apps de pago aceptan", true)).toBe("physical")
    // No place named: the app still says the work is online.
    expect(inferExecutionMode("Ask stallholders which mobile money apps they take")).toBe("digital")
    expect(inferExecutionMode("Review the onboarding of our banking app", true)).toBe("digital")
    expect(inferExecutionMode("Count the bikes on the street and compare with the app's numbers", true)).toBe("hybrid")
    expect(keysOf("Interview shop owners and market traders")).toContain("~store")
  })
  it("a QR code or a bar code at a till is no code written at a desk", () => {
    expect(inferExecutionMode("Go to the pharmacy and check the QR code by the till")).toBe("physical")
    expect(inferExecutionMode("Check the bar code on every box at the warehouse")).toBe("physical")
  })
  it("across town is over its streets", () => {
    expect(inferExecutionMode("Deliver flowers across town by noon")).toBe("physical")
    expect(inferExecutionMode("Bring the keys across the city")).toBe("physical")
  })
})

describe("hearing people out is interviewing them", () => {
  it("sitting down with people, hearing from them, one-on-one, is an interview, and a face is no shelf facing", () => {
    for (const text of [
      "Sit down with five nurses and hear how they use the tablets",
      "Sit down face to face with farmers about the harvest",
      "Hear from ten parents about school fees",
      "One-on-one conversations with bus drivers",
      "Sentarse con los vendedores del mercado"
    ]) {
      expect(keysOf(text)).toContain("~interview")
    }
    expect(keysOf("Sit down face to face with farmers")).not.toContain("~shelf")
    expect(keysOf("Count the shelf facings of our brand")).toContain("~shelf")
  })
})

describe("'vet' is sourcing only where what is sourced is named", () => {
  it("vetting factories, vendors or manufacturers is sourcing; Swedish and Norwegian 'vet' (knows) is not", () => {
    expect(keysOf("Vet three shoe factories near Hanoi")).toContain("~sourcing")
    expect(keysOf("Vet two vendors of packaging")).toContain("~sourcing")
    for (const text of [
      "Vet du hur man bokför i Fortnox?",
      "Jeg vet ikke hvem som kan oversette dette",
      "Vet check for our two cats"
    ]) {
      expect(keysOf(text)).not.toContain("~sourcing")
    }
  })
})
