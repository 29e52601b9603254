import KeyValueObserving

@KeyValueObservable
final class Person {
  var name = ""
  var age: Int = 0 {
    didSet { if age < 0 { age = 0 } }
  }
  var nickname: String?
  @KeyValueIgnored var cache = 0
  let id = 1
  var summary: String { "\(name), \(age)" }
  init() {}
}

@KeyValueObservable
class Base {
  var title = "t"
}
@KeyValueObservable
class Sub: Base {
  var count = 0
}
@KeyValueObservable
final class Box<T> {
  var value: T
  init(_ value: T) { self.value = value }
}
@MainActor @KeyValueObservable
final class VM {
  var text = ""
}

let p = Person()
let t = p.observe(\.age, options: [.old, .new, .prior]) { _, c in print("age", c) }
p.age = 5
p.age = -3
let s = Sub()
let t2 = s.observe(\.title, options: [.new]) { o, c in print("title", c) }
let t3 = s.observe(\.count, options: [.new]) { o, c in print("count", c) }
s.title = "x"; s.count = 4
print(s.observationInfo)
let b = Box(1)
let t4 = b.observe(\.value, options: [.new, .initial]) { _, c in print("box", c) }
b.value += 2
_ = (t, t2, t3, t4)
