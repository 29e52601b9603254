/// The floor's model, declared in the module that writes to it, as
/// application code usually does: the write compiles to a store.
final class Plain {
  var value = 0
}
