package generate

import (
	"math/rand/v2"
	"strconv"
)

// A naming scheme builds player names from family and given names.
type scheme struct {
	family, given []string
	format        func(family, given string) string
}

func commaFormat(f, g string) string { return f + ", " + g }
func spaceFormat(f, g string) string { return f + " " + g }
func joinFormat(f, g string) string  { return f + g }
func givenFirst(f, g string) string  { return g + " " + f }

var schemes = []scheme{
	{ // French, German, Nordic, Polish, Czech, Hungarian… (PGN style "Family, Given")
		family: []string{"Dupré", "Lefèvre", "Moreau", "Giraud", "Bénard", "Rousseau", "Thévenin", "Müller",
			"Schröder", "Groß", "Weiß", "Jäger", "Løvås", "Ærø", "Söderström", "Ångström", "Nowak", "Wójcik",
			"Łukasiewicz", "Dvořák", "Novák", "Horváth", "Szűcs", "Kovačević", "Petrović", "Ţepeş", "Popescu",
			"Veltin", "Lambert", "Olivier", "Schmidt", "Van der Berg", "De Vries", "Janssen", "Ó Briain",
			"MacAoidh", "Leclercq", "Dubœuf", "Garnier", "Boulanger"},
		given: []string{"Amélie", "Cyril", "Hélène", "Jérôme", "Noël", "Zoé", "Loïc", "Anaïs", "Jürgen",
			"Björn", "Sören", "Åsa", "Łukasz", "Małgorzata", "Jiří", "Zdeněk", "Gyöngyi", "Ádám", "Ștefan",
			"Ioana", "François", "Gaëlle", "Maëlys", "Benoît", "Cécile", "Jan", "Marie", "Piet", "Siobhán",
			"Eóin", "Agnès", "Théo", "Inès", "Clémence", "Lars", "Ingrid", "Dagmar", "Radek", "Élodie", "Yannick"},
		format: commaFormat,
	},
	{ // Spanish, Portuguese, Italian, Turkish, Vietnamese
		family: []string{"García", "Muñoz", "Peña", "Ibáñez", "Gonçalves", "Conceição", "Magalhães", "Nicolò",
			"D'Alessandro", "Çelik", "Öztürk", "Yıldız", "Şahin", "Nguyễn", "Trần", "Phạm", "Lê", "Hoàng",
			"Fernández", "López", "Suárez", "Castaño", "Brandão", "Esposito", "Ricci", "Aydın", "Doğan", "Võ",
			"Đặng", "Bùi"},
		given: []string{"José", "María", "Íñigo", "Begoña", "João", "Inês", "Sebastião", "Niccolò", "Lucía",
			"Ayşe", "Gökhan", "Çağla", "İlkay", "Thị Ánh", "Văn Đức", "Minh Châu", "Raúl", "Sofía", "Ramón",
			"Leonor", "Tomás", "Ângela", "Fabrizio", "Chiara", "Emre", "Özge", "Quỳnh", "Phúc", "Álvaro", "Núria"},
		format: commaFormat,
	},
	{ // Japanese, family then given, no comma
		family: []string{"羽生", "藤井", "渡辺", "佐藤", "鈴木", "高橋", "田中", "伊藤", "山本", "中村",
			"小林", "加藤", "吉田", "山田", "佐々木", "山口", "松本", "井上", "木村", "林", "清水", "森", "大山",
			"升田", "谷川", "森内", "丸山", "郷田", "久保", "豊島"},
		given: []string{"善治", "聡太", "明", "康光", "浩司", "俊之", "忠晴", "利明", "将司", "康晴", "一郎",
			"花子", "美穂", "由香", "千尋", "真央", "翔太", "大輔", "陽菜", "結衣", "颯", "蓮", "葵", "陸",
			"美咲", "健太", "直樹", "里見", "香奈", "恵"},
		format: spaceFormat,
	},
	{ // Russian, Ukrainian, Bulgarian, Serbian (Cyrillic)
		family: []string{"Иванов", "Смирнова", "Кузнецов", "Попова", "Соколов", "Лебедева", "Козлов",
			"Новикова", "Морозов", "Петрова", "Волков", "Соловьёва", "Васильев", "Зайцева", "Павлов",
			"Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравчук", "Димитров", "Георгиева", "Тодоров",
			"Јовановић", "Ђорђевић", "Николић", "Ђукић", "Жуков", "Щербаков", "Ёлкина"},
		given: []string{"Сергей", "Наталья", "Алексей", "Ольга", "Дмитрий", "Татьяна", "Андрей", "Елена",
			"Михаил", "Ирина", "Юрий", "Людмила", "Владимир", "Анастасия", "Павел", "Олександр", "Ганна",
			"Богдан", "Їжак", "Євген", "Стефан", "Веселина", "Милош", "Јелена", "Драган", "Фёдор", "Пётр",
			"Ксения", "Эдуард", "Яна"},
		format: commaFormat,
	},
	{ // Greek
		family: []string{"Παπαδόπουλος", "Παπαδοπούλου", "Γεωργίου", "Οικονόμου", "Νικολάου", "Καραγιάννης",
			"Βασιλείου", "Δημητρίου", "Ιωάννου", "Κωνσταντίνου", "Μακρής", "Αλεξίου", "Χριστοδούλου",
			"Σταυρόπουλος", "Θεοδωρίδης", "Λαμπράκη", "Ζαχαρίου", "Ψαρράς", "Ξενάκης", "Φωτίου"},
		given: []string{"Νίκος", "Μαρία", "Γιώργος", "Ελένη", "Κώστας", "Σοφία", "Δημήτρης", "Κατερίνα",
			"Γιάννης", "Αγγελική", "Παναγιώτης", "Ευτυχία", "Θανάσης", "Χρυσούλα", "Σπύρος", "Ιφιγένεια",
			"Άρης", "Ζωή", "Ηλίας", "Φωτεινή"},
		format: commaFormat,
	},
	{ // Arabic, given name first
		family: []string{"الحسن", "العلي", "المصري", "الخطيب", "الزهراني", "القحطاني", "الشامي", "البغدادي",
			"التونسي", "المغربي", "الحداد", "النجار", "السيد", "الفارسي", "الأنصاري", "الهاشمي", "العمري",
			"الدوسري", "الجزائري", "السوداني"},
		given: []string{"محمد", "فاطمة", "أحمد", "عائشة", "علي", "مريم", "يوسف", "خديجة", "عمر", "زينب",
			"حسن", "ليلى", "خالد", "نور", "إبراهيم", "سارة", "طارق", "هدى", "سليم", "رنا"},
		format: givenFirst,
	},
	{ // Korean, family then given, written together
		family: []string{"김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "권"},
		given: []string{"민준", "서연", "지훈", "하은", "도윤", "지우", "서준", "수아", "예준", "지민",
			"현우", "유진", "건우", "채원", "우진", "은서", "시우", "다은", "준호", "소희"},
		format: joinFormat,
	},
	{ // Chinese, family then given, written together
		family: []string{"王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡"},
		given: []string{"伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟",
			"涛", "明", "超", "秀英", "霞", "平"},
		format: joinFormat,
	},
}

// player is one entry of the pool.
type player struct {
	name   string
	rating int
}

// newPool builds the player pool: every family × given name of every
// scheme, ratings drawn from r, and the order shuffled by r so that the most
// active players (the front of the pool) differ from seed to seed.
func newPool(r *rand.Rand) []player {
	var pool []player
	for _, s := range schemes {
		for _, f := range s.family {
			for _, g := range s.given {
				pool = append(pool, player{name: s.format(f, g)})
			}
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i := range pool {
		// Roughly normal around 1750, 1100…2700.
		x := (r.Float64() + r.Float64() + r.Float64() - 1.5) * 2 // about -3…3
		pool[i].rating = clamp(1750+int(x*230), 1100, 2750)
	}
	return pool
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// skewed returns an index in [0, n) with a heavy head: index k is chosen with
// probability falling roughly as a power of k.
func skewed(r *rand.Rand, n int) int {
	u := r.Float64()
	return min(n-1, int(float64(n)*u*u*u))
}

// event is a tournament: name, site, first day, rounds.
type event struct {
	name, site string
	year       int
	month, day int
	rounds     int
}

var cities = []string{"Ōsaka", "Kyōto", "Tōkyō", "Sapporo", "Paris", "Besançon", "Saint-Étienne", "Orléans",
	"Genève", "Zürich", "München", "Köln", "Göteborg", "Malmö", "Århus", "Tromsø", "Kraków", "Łódź", "Brno",
	"Plzeň", "Székesfehérvár", "Timișoara", "São Paulo", "Bogotá", "Málaga", "A Coruña", "İstanbul",
	"Москва", "Санкт-Петербург", "Київ", "София", "Београд", "Αθήνα", "Θεσσαλονίκη", "القاهرة", "الرباط",
	"서울", "부산", "北京", "上海", "Amsterdam", "Utrecht", "Bruxelles", "Liège", "Dakar", "Montréal",
	"Québec", "Hà Nội", "Reykjavík", "Valparaíso"}

var eventKinds = []func(city string) string{
	func(c string) string { return c + " Open" },
	func(c string) string { return "Championnat de " + c },
	func(c string) string { return "Tournoi de " + c },
	func(c string) string { return c + " Invitational" },
	func(c string) string { return c + " 名人戦" },
	func(c string) string { return "Кубок " + c },
	func(c string) string { return "Τουρνουά " + c },
	func(c string) string { return "بطولة " + c },
	func(c string) string { return c + " Memorial" },
	func(c string) string { return "Festival de " + c },
	func(c string) string { return c + " Club Championship" },
	func(c string) string { return c + " 선수권" },
}

// newEvents builds n events from r, over the years 1975–2025.
func newEvents(r *rand.Rand, n int) []event {
	evs := make([]event, n)
	for i := range evs {
		c := cities[r.IntN(len(cities))]
		evs[i] = event{
			name:   eventKinds[r.IntN(len(eventKinds))](c),
			site:   c,
			year:   1975 + r.IntN(51),
			month:  1 + r.IntN(12),
			day:    1 + r.IntN(20),
			rounds: 5 + r.IntN(7),
		}
		if r.IntN(3) > 0 { // most events have an edition number in their name
			evs[i].name += " " + strconv.Itoa(evs[i].year)
		}
	}
	return evs
}

// date formats a PGN date.
func date(y, m, d int) string {
	b := make([]byte, 0, 10)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, '.', byte('0'+m/10), byte('0'+m%10), '.', byte('0'+d/10), byte('0'+d%10))
	return string(b)
}

// Comments, in several languages, attached to a few moves.
var moveComments = []string{
	"A surprising choice.",
	"Le coup du livre.",
	"Coup fort, qui menace déjà.",
	"Une erreur de temps.",
	"Zeitnot.",
	"Ein starker Zug.",
	"Novedad teórica.",
	"Jogada forçada.",
	"Сильный ход.",
	"Ошибка в цейтноте.",
	"Ισχυρή κίνηση.",
	"好手。",
	"疑問手。",
	"한 수 위의 수.",
	"حركة قوية.",
	"The only move.",
	"Better was the quiet retreat.",
	"White had prepared this at home.",
	"Tempo!",
	"Oups.",
}

// Introductions before the first move.
var introComments = []string{
	"Annotated by the winner.",
	"Commentaires de l'arbitre.",
	"Partie décisive du tournoi.",
	"Аннотация — по материалам турнирного бюллетеня.",
	"解説：観戦記より。",
	"Game of the round.",
}

// Annotators for games that carry comments.
var annotators = []string{"Veltin, Cyril", "Dupré, Amélie", "Смирнова, Ольга", "藤井 聡太", "García, Lucía",
	"Οικονόμου, Ελένη", "Komayō"}
