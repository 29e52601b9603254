import KeyValueObserving
import Testing

// The UIKit example of the "Observing a closure" and "Binding properties"
// articles, run on Linux: the views are stand-ins with UIKit's shapes.

/// `UILabel`'s shape: an optional text the library knows nothing of.
@MainActor
final class ExampleLabel {
  var text: String?
}

/// A text field whose edits are announced: what a field must be to be
/// bound both ways (a `UITextField` subclass marked the same way, setting
/// `enteredText` from its editing-changed action).
@MainActor
@KeyValueObservable
final class ExampleTextField {
  var enteredText = ""

  /// What the user typing does.
  func type(_ text: String) { enteredText = text }
}

@MainActor
@KeyValueObservable
final class ProfileModel {
  var firstName = "Ada"
  var lastName = "Lovelace"
  var nickname: String? = nil
  var greeting: String { "Hello, \(nickname ?? firstName) \(lastName)" }
}

@MainActor
final class ProfileViewController {
  let model: ProfileModel
  let greetingLabel = ExampleLabel()
  let nicknameField = ExampleTextField()
  private var tokens: [KeyValueObservation] = []

  init(model: ProfileModel) {
    self.model = model
  }

  func viewDidLoad() {
    tokens = [
      withKeyValueObservation { [unowned self] in
        greetingLabel.text = model.greeting
      },
      model.bind(\.nickname, twoWayTo: \.enteredText, on: nicknameField, placeholder: "", initialValueFrom: .source),
    ]
  }
}

@Suite("The UIKit-style example, with stand-in views")
@MainActor
struct UIKitStyleExampleTests {
  @Test("the label follows the model's computed text, and the field and the model's String? follow each other")
  func example() {
    let model = ProfileModel()
    var controller: ProfileViewController? = ProfileViewController(model: model)
    weak let weakController = controller
    controller!.viewDidLoad()
    let label = controller!.greetingLabel
    let field = controller!.nicknameField
    #expect(label.text == "Hello, Ada Lovelace")
    #expect(field.enteredText == "")

    field.type("Countess")
    #expect(model.nickname == "Countess")
    #expect(label.text == "Hello, Countess Lovelace")

    model.lastName = "King"
    #expect(label.text == "Hello, Countess King")

    field.type("")
    #expect(model.nickname == nil)
    #expect(label.text == "Hello, Ada King")

    model.nickname = "Ada K."
    #expect(field.enteredText == "Ada K.")

    controller = nil
    #expect(weakController == nil)
    model.firstName = "Augusta"
    #expect(label.text == "Hello, Ada K. King")
    #expect(model.observationInfo.isEmpty)
  }
}
