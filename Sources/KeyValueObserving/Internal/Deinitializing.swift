/// Whether `object` is running its `deinit`.
///
/// Lets an identity check tell "this registration's observer is the caller,
/// removing itself in its `deinit`" (Objective-C's remove-in-dealloc idiom,
/// where the registration's own weak reference already reads `nil`) from "a
/// freed observer whose address the caller now occupies"; and lets a write
/// made in the observed object's own `deinit` notify nobody.
@usableFromInline
func isDeinitializing(_ object: AnyObject) -> Bool {
  kvoIsDeallocating(Unmanaged.passUnretained(object).toOpaque())
}
