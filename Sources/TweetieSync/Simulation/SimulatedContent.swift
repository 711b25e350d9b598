/// The fictional people and phrases ``SimulatedTwitterSource`` composes its timelines from.
enum SimulatedContent {
    struct Author {
        let id: Int64
        let name: String
        let handle: String
        let about: String
        let url: String
    }

    static let authors: [Author] = [
        Author(id: 28_710_431, name: "Maya Lindqvist", handle: "mayalindqvist",
               about: "iOS lead. Reactive things, tea, long walks with a podcast.", url: "https://t.co/mL7qPz0aKd"),
        Author(id: 61_093_552, name: "Tomás Ferreira", handle: "tferreira_dev",
               about: "Swift on the server and on the phone. Organizer @LisbonCocoa.", url: "https://t.co/Fr3Tq9wUe1"),
        Author(id: 104_558_201, name: "Priya Raman", handle: "priyacodes",
               about: "Building apps one Observable at a time. Author, speaker, cat person.", url: ""),
        Author(id: 187_230_876, name: "Jonas Becker", handle: "jbecker",
               about: "Indie dev from Hamburg. Makes small apps with big tests.", url: "https://t.co/Bk2hXr7mNa"),
        Author(id: 245_901_337, name: "Chloé Martin", handle: "chloe_swift",
               about: "Mobile architect @ a bank you know. Opinions are my cat's.", url: "https://t.co/Cm9sWf3eLp"),
        Author(id: 318_446_020, name: "Kenji Watanabe", handle: "kenjiw",
               about: "Compilers, concurrency, coffee.", url: "https://t.co/Kw0aZ8cVb4"),
        Author(id: 402_117_985, name: "Sofia Novak", handle: "sofianovak",
               about: "Teaching Swift to humans. Workshops, books, and the odd conference talk.",
               url: "https://t.co/Sn5dQy1rTx"),
        Author(id: 533_782_614, name: "Daniel Okafor", handle: "danokafor",
               about: "Staff engineer. Writes about app architecture at the weekend.", url: "https://t.co/Do4mGt6wHs"),
    ]

    static func imageURL(for author: Author) -> String {
        "https://pbs.twimg.com/profile_images/\(author.id)/\(author.handle)_normal.jpg"
    }

    static let topics: [String] = [
        "RxSwift", "Combine", "SwiftUI", "async/await", "actors", "the Swift Package Manager", "MVVM",
        "snapshot tests", "Xcode 10", "structured concurrency", "Realm", "property wrappers",
        "Codable", "RxCocoa bindings", "the coordinator pattern", "Core Data", "LMDB",
    ]

    static let conferences: [String] = [
        "FrenchKit", "try! Swift Tokyo", "Swift Alps", "dotSwift", "App Builders", "NSSpain", "iOSDevUK",
    ]

    static let facts: [String] = [
        "flatMapLatest cancels the previous inner subscription, which is exactly what a search box needs",
        "a DisposeBag disposes everything when it is deallocated, so replacing it is a reset",
        "share(replay: 1) is the answer to about half of the questions I get",
        "Xcode lets you drag a breakpoint onto a different line",
        "observeOn and subscribeOn are not interchangeable, no matter how hard you wish",
        "you can mark a test as expected to fail instead of commenting it out",
        "Codable can decode a date from a custom format with a single strategy",
    ]

    static let closers: [String] = ["", "", " 🎉", " 🙌", " 🤔", " #iOSDev", " #RxSwift", " 🚀"]

    static let templates: [String] = [
        "Just shipped a new version of our app built with {topic}. Took longer than expected but worth it!",
        "Hot take: {topic} is easier than {topic2} once it clicks.",
        "Writing a blog post about {topic}. Any questions you'd like answered?",
        "Spent the whole morning debugging a {topic} issue. It was a missing [weak self].",
        "Slides from my talk on {topic} are up: https://t.co/{code}",
        "Does anyone have a good resource on testing {topic}?",
        "TIL {fact}",
        "Conference season! Who's going to {conference}? Would love to chat about {topic}.",
        "{topic} + {topic2} = ❤️",
        "Refactored a 900-line view controller into {topic}. Nobody noticed, which is the point.",
        "New chapter draft on {topic} is done. Off to find a second coffee.",
        "Question for the timeline: {topic} or {topic2} for a brand new project?",
    ]

    static let replies: [String] = [
        "totally agree, we saw the same thing with {topic}",
        "have you tried {topic} for that? Worked wonders for us",
        "ha, been there! Happy to pair on it next week",
        "great thread, bookmarking this",
        "this is the kind of tip I'd put in a book 😄",
    ]

    static let edits: [String] = [
        " (edit: fixed the link)", " — update: it's live now!", " (typo fixed, sorry)", " [update: thanks everyone!]",
    ]
}
