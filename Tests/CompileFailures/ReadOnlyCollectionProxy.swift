// A proxy of an array or Set property whose setter cannot be reached
// where the call is (private(set), get-only) is refused with the package's
// message, even when the result is used, where it said "cannot convert …
// to ReferenceWritableKeyPath".
import KeyValueObserving

@KeyValueObservable
final class Tag {
  private(set) var images: [String] = []
  private(set) var ids: Set<Int> = []
  var shown: [String] { images }
  var pending: [String]? = nil
  var count = 0
}

func misuse(_ tag: Tag) {
  tag.mutableArrayValue(for: \.images).append("x")
  // expected-error: this array property cannot be set here
  let proxy = tag.mutableArrayValue(for: \.images)
  // expected-error: this array property cannot be set here
  proxy.insert("a", at: 0)
  tag.mutableArrayValue(for: \.shown).removeAll()
  // expected-error: this array property cannot be set here
  tag.mutableSetValue(for: \.ids).insert(1)
  // expected-error: this Set property cannot be set here
  tag.mutableArrayValue(for: \.pending).append("y")
  // expected-error: needs a non-optional array property
  tag.mutableArrayValue(for: \.count).removeAll()
  // expected-error: mutableArrayValue(for:) needs a writable key path to an array property
}

// no other errors
