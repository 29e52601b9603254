/// The array of a ``KeyValueMutableArray`` made with `init()`, which
/// belongs to no object and notifies nobody.
///
/// Not API.
@usableFromInline
final class DetachedElements<Element> {
  /// Not checked for exclusive access at run time: the proxy that holds it
  /// is not `Sendable`, and each of its calls reaches the array once.
  @exclusivity(unchecked) @usableFromInline var elements: [Element] = []

  @usableFromInline
  init() {}
}
