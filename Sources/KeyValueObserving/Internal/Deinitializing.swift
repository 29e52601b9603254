/// Whether `object` is running its `deinit`: a weak reference formed to it
/// now reads `nil`, although the caller holds it.
///
/// Lets an identity check tell "this registration's observer is the caller,
/// removing itself in its `deinit`" (Objective-C's remove-in-dealloc idiom,
/// where the registration's own weak reference already reads `nil`) from "a
/// freed observer whose address the caller now occupies".
///
/// ```swift
/// deinit { person.removeObserver(self, forKeyPath: "name") }
/// // inside: isDeinitializing(self) == true, so the registration matches
/// ```
func isDeinitializing(_ object: AnyObject) -> Bool {
  weak let probe = object
  return probe == nil
}
