import KeyValueObservingCombine
import Testing

@Suite("Bindings: assign(to:on:) between observable objects")
struct BindingTests {
  @Test("one way: assign(to:on:) copies each value onto another observable object, whose observers hear it")
  func oneWay() {
    let profile = Profile(name: "Ada")
    let label = Label()
    var heard: [String] = []
    let token = label.observe(\.text, options: .new) { _, change in heard.append(change.newValue!) }
    let binding = profile.publisher(for: \.name).assign(to: \.text, on: label)
    profile.name = "Grace"
    #expect(label.text == "Grace")
    #expect(heard == ["Ada", "Grace"])
    binding.cancel()
    profile.name = "Edsger"
    #expect(label.text == "Grace")
    token.invalidate()
  }

  @Test("two ways, with removeDuplicates on each side: a change crosses, comes back once, equal, and stops")
  func twoWay() {
    let profile = Profile(name: "Ada")
    let label = Label()
    let toLabel = profile.publisher(for: \.name).removeDuplicates().assign(to: \.caption, on: label)
    let toProfile = label.publisher(for: \.text).removeDuplicates().assign(to: \.name, on: profile)
    #expect(label.text == "Ada" && profile.name == "Ada")
    let before = label.assignments
    profile.name = "Grace"
    #expect(label.text == "Grace")
    #expect(label.assignments == before + 1)
    label.text = "Edsger"
    #expect(profile.name == "Edsger")
    #expect(label.assignments == before + 2, "the profile's change came back once, equal, and stopped there")
    toLabel.cancel()
    toProfile.cancel()
    #expect(profile.observationInfo.isEmpty && label.observationInfo.isEmpty)
  }
}
