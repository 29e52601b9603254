/// A misuse the library made harmless, and that the developer should hear
/// about: what Objective-C KVO would have punished with an exception.
///
/// ```swift
/// KeyValueObservingDiagnostic.handler = { diagnostic in
///     logger.warning("\(diagnostic.kind): \(diagnostic.message)")
/// }
///
/// let reported = KeyValueObservingDiagnostic.withHandler({ print("caught", $0) }) {
///     person.removeObserver(logger, forKeyPath: "name")  // prints "caught …"
/// }
/// ```
///
/// A diagnostic goes to one handler, the innermost of three:
/// 1. a handler bound with `withHandler(_:_:)` (synchronous or
///    async) for the duration of a call, on the current task or thread: what
///    tests use, so that tests running in parallel each capture their own;
/// 2. the process-wide ``handler``, when set;
/// 3. the default, ``standardError``: in debug builds it prints each
///    distinct diagnostic once to standard error; release builds are silent.
///
/// Handlers are called on the thread that made the mistake, with no lock of
/// the library held.
public struct KeyValueObservingDiagnostic: Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, as a category a handler can filter on.
  ///
  /// ```swift
  /// if diagnostic.kind == .unregisteredRemoval { ... }
  /// ```
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The category's name, such as `"unregisteredRemoval"`.
    public let name: String

    /// A category named `name`.
    ///
    /// ```swift
    /// let kind = KeyValueObservingDiagnostic.Kind(name: "custom")
    /// ```
    public init(name: String) {
      self.name = name
    }

    /// The category's name.
    ///
    /// ```swift
    /// print(KeyValueObservingDiagnostic.Kind.unmatchedDidChange)  // "unmatchedDidChange"
    /// ```
    public var description: String { name }

    /// `removeObserver` for an observer, key path and context with no such
    /// registration: never added, or removed already. Nothing was removed.
    ///
    /// ```swift
    /// person.removeObserver(logger, forKeyPath: "name")  // twice: reported
    /// ```
    public static let unregisteredRemoval = Kind(name: "unregisteredRemoval")

    /// A classic observer was freed while still registered. Its
    /// registrations were dropped and it was never messaged; Objective-C KVO
    /// would have crashed.
    ///
    /// ```swift
    /// try person.addObserver(logger!, forKeyPath: "name")
    /// logger = nil
    /// person.name = "Ada"  // reported; nobody is called
    /// ```
    public static let observerFreedWhileRegistered = Kind(name: "observerFreedWhileRegistered")

    /// A did-change with no will-change of the same key open on the thread.
    /// Nothing was notified.
    ///
    /// ```swift
    /// person.didChangeValue(for: \.name)  // reported
    /// ```
    public static let unmatchedDidChange = Kind(name: "unmatchedDidChange")

    /// An object deinitialised with will-changes never closed by their
    /// did-changes: those keys stayed silent on their threads.
    ///
    /// ```swift
    /// person.willChangeValue(for: \.name)  // and no didChangeValue: reported at deinit
    /// ```
    public static let unclosedWillChange = Kind(name: "unclosedWillChange")

    /// Indexes outside the array in a manual to-many notification: the
    /// change was announced and notified, and its old or new values hold
    /// only the elements that exist. (A proxy from
    /// ``KeyValueObservable/mutableArrayValue(for:)`` stops the program
    /// instead, as `Array` does.)
    ///
    /// ```swift
    /// person.withChange(.removal, valuesAt: [5..<6], for: \.tags) {}  // reported
    /// ```
    public static let indexesOutOfRange = Kind(name: "indexesOutOfRange")

    /// An observed key path that reads no property of a
    /// `@KeyValueObservable` class, so no assignment can notify it.
    ///
    /// ```swift
    /// person.observe(\.constantID) { _, _ in }  // reported
    /// ```
    public static let unobservableKeyPath = Kind(name: "unobservableKeyPath")

    /// A string key that names a property key-value coding cannot reach,
    /// because the class that declares it is not marked
    /// `@KeyValueObservable` (an unmarked subclass, or a plain superclass):
    /// reported beside the thrown ``KeyValueCodingError/unknownKey(key:type:)``,
    /// with what to mark.
    ///
    /// ```swift
    /// try unmarkedSubclassObject.addObserver(logger, forKeyPath: "extra")  // throws, and reported
    /// ```
    public static let unreachableKey = Kind(name: "unreachableKey")

    /// An object a model graph reaches through a link whose class is not
    /// marked `@KeyValueObservable`: its changes are not heard, and what it
    /// links to is not followed. Reported once per graph and class.
    ///
    /// ```swift
    /// document.observeGraph { _ in }  // document.printer is a plain class: reported
    /// ```
    public static let unobservableGraphObject = Kind(name: "unobservableGraphObject")

    /// A ``KeyValueUndoStack`` asked to end a group with none open, or to
    /// undo or redo inside one, or during an undo or a redo (by an observer
    /// it notified). Nothing was done.
    ///
    /// ```swift
    /// undo.group(named: "Sort") { try? undo.undo() }  // reported: end the group first
    /// ```
    public static let unbalancedUndoGroup = Kind(name: "unbalancedUndoGroup")

    /// An observation refused because its key path reads an array element
    /// by position (`\.items[0]`): once the array is shorter, re-reading
    /// it after a change would stop the program. The token it returned is
    /// inert, a sequence of it finishes at once, and a publisher's
    /// subscription ends silently, as for a freed object.
    ///
    /// ```swift
    /// listing.observe(\.items[0]) { _, _ in }  // refused and reported
    /// listing.observe(\.items) { listing, _ in print(listing.items.first ?? 0) }  // instead
    /// ```
    public static let arrayIndexKeyPath = Kind(name: "arrayIndexKeyPath")

    /// `withKeyValueObservation(tracking: .coalesced)` called, or a binding
    /// made with `coalesced: true`, where no actor isolates it: there is no
    /// job to coalesce changes into (<doc:ObservingClosures#Coalesced-runs>),
    /// so it runs after each change instead.
    ///
    /// ```swift
    /// nonisolated func start() { token = withKeyValueObservation(tracking: .coalesced) { … } }
    /// ```
    public static let coalescingWithoutActor = Kind(name: "coalescingWithoutActor")

    /// A binding whose one change was carried back and forth a hundred
    /// times on its thread — a `didSet` or an observer on one side that
    /// changes the other at every write, or a transform and inverse that do
    /// not give back what they were given — and stopped; the two sides may
    /// differ.
    ///
    /// ```swift
    /// var text = "" { didSet { model.count += 1 } }  // bound to model.count's text: never settles
    /// ```
    public static let bindingDidNotSettle = Kind(name: "bindingDidNotSettle")

    /// A binding refused because it binds a property to itself. Its token
    /// is inactive.
    ///
    /// ```swift
    /// let token = model.bind(\.volume, twoWayTo: \.volume, on: model, initialValueFrom: .source)  // reported
    /// ```
    public static let bindingToItself = Kind(name: "bindingToItself")

    /// A side of a binding changed on one thread while the binding was
    /// writing on another: the bound pair is written from two threads at
    /// once, a race on storage nothing synchronises. Reported once per
    /// binding; the change is carried after the write.
    ///
    /// ```swift
    /// DispatchQueue.global().async { model.volume = 3 }
    /// slider.value = 8  // on the main thread, while the binding writes: reported
    /// ```
    public static let bindingWrittenConcurrently = Kind(name: "bindingWrittenConcurrently")

    /// An observation asked to hear freed objects
    /// (``KeyValueObservingOptions/deallocation``) whose path holds an
    /// object of a class that is not `@KeyValueObservable`: nothing tells
    /// when such an object is freed, so a `weak` link to it reads `nil`
    /// unheard. Reported once per observation, by the read that finds it
    /// (at registration, or later, when such an object arrives); the
    /// observation is made. Mark the class to hear it; for a class one
    /// cannot mark (Foundation's `NSObject`, another module's), the message
    /// says what to do instead. A binding, which hears freed objects
    /// without being asked, is not reported.
    ///
    /// ```swift
    /// cell.observe(\.theme, options: [.new, .deallocation]) { _, _ in }  // Theme is a plain class: reported
    /// ```
    public static let unheardDeallocation = Kind(name: "unheardDeallocation")
  }

  /// The category.
  public let kind: Kind

  /// What happened, naming the types and keys involved.
  public let message: String

  /// A diagnostic of `kind` saying `message`.
  ///
  /// ```swift
  /// let diagnostic = KeyValueObservingDiagnostic(kind: .unmatchedDidChange, message: "didChange without willChange")
  /// ```
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message, prefixed with the library's name, as printed.
  ///
  /// ```swift
  /// print(diagnostic)  // "KeyValueObserving: removeObserver: …"
  /// ```
  public var description: String { "KeyValueObserving: \(message)" }
}
