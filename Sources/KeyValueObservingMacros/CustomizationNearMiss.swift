import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder

/// A class method that looks like one of `KeyValueObservingCustomization`'s
/// requirements but is never called, because it has Objective-C's shape: a
/// `String` key, or Objective-C's name. Swift says no more than "nearly
/// matches" of the first and nothing of the second; the macro names the
/// signature that works.
struct CustomizationNearMiss {
  /// The requirement the method stands for.
  enum Requirement: String {
    case keyPathsAffectingValue
    case automaticallyNotifiesObservers

    /// The requirement as a class declares it.
    var signature: String {
      "static func \(rawValue)(for key: AnyKeyPath) -> \(result)"
    }

    var result: String {
      switch self {
      case .keyPathsAffectingValue: "Set<AnyKeyPath>"
      case .automaticallyNotifiesObservers: "Bool"
      }
    }
  }

  /// How the method differs from the requirement.
  enum Shape: Equatable {
    /// The requirement's name, with a `String` key or result.
    case stringKeys
    /// Objective-C's name for it (`keyPathsForValuesAffectingValue(forKey:)`).
    case objectiveCName
    /// Objective-C's method for one key (`keyPathsForValuesAffectingFullName`),
    /// with the property it names.
    case perKey(property: String)
  }

  let function: FunctionDeclSyntax
  let requirement: Requirement
  let shape: Shape

  /// The method's name as Swift writes it with its labels:
  /// `keyPathsForValuesAffectingValue(forKey:)`.
  var writtenName: String {
    let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }
    return "\(function.name.text)(\(labels.joined()))"
  }

  /// The method written with the requirement's name and signature, its
  /// modifiers and body kept (a body that compares strings must then
  /// compare key paths); none for a method of one key, whose body answers
  /// for that key alone.
  var fixIt: FixIt? {
    guard shape == .stringKeys || shape == .objectiveCName else { return nil }
    let model = DeclSyntax("func f(for key: AnyKeyPath) -> \(raw: requirement.result) {}").cast(FunctionDeclSyntax.self)
    var fixed = function
    fixed.name = .identifier(requirement.rawValue)
    fixed.signature = model.signature.with(\.trailingTrivia, function.signature.trailingTrivia)
    return FixIt(message: FixMessage.useCustomizationSignature, changes: [.replace(oldNode: Syntax(function), newNode: Syntax(fixed))])
  }
}

/// `type` as written, without the standard library's module name and
/// without spaces: `Swift.Set<Swift.AnyKeyPath>` reads `Set<AnyKeyPath>`.
private func unqualified(_ type: TypeSyntax) -> String {
  type.trimmedDescription.split(separator: "Swift.", omittingEmptySubsequences: false).joined()
    .filter { !$0.isWhitespace }
}

extension ClassDeclSyntax {
  /// The class's methods in Objective-C's customisation shape.
  var customizationNearMisses: [CustomizationNearMiss] {
    memberBlock.members.compactMap { member -> CustomizationNearMiss? in
      guard let function = member.decl.as(FunctionDeclSyntax.self),
        function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) })
      else { return nil }
      let name = function.name.text
      let label = function.signature.parameterClause.parameters.first?.firstName.text
      let keyType = function.signature.parameterClause.parameters.first.map { unqualified($0.type) }
      let resultType = function.signature.returnClause.map { unqualified($0.type) }
      func takesKeyPaths(_ requirement: CustomizationNearMiss.Requirement) -> Bool {
        label == "for" && keyType == "AnyKeyPath" && resultType == requirement.result
      }
      for requirement in [CustomizationNearMiss.Requirement.keyPathsAffectingValue, .automaticallyNotifiesObservers] {
        if name == requirement.rawValue {
          if label == "forKey" {
            return CustomizationNearMiss(function: function, requirement: requirement, shape: .objectiveCName)
          }
          return takesKeyPaths(requirement) || keyType == nil
            ? nil : CustomizationNearMiss(function: function, requirement: requirement, shape: .stringKeys)
        }
      }
      if name == "keyPathsForValuesAffectingValue" {
        return CustomizationNearMiss(function: function, requirement: .keyPathsAffectingValue, shape: .objectiveCName)
      }
      for (prefix, requirement) in [
        ("keyPathsForValuesAffecting", CustomizationNearMiss.Requirement.keyPathsAffectingValue),
        ("automaticallyNotifiesObserversOf", .automaticallyNotifiesObservers),
      ] where name.hasPrefix(prefix) && name.count > prefix.count && keyType == nil {
        let key = name.dropFirst(prefix.count)
        let property = key.prefix(1).lowercased() + key.dropFirst()
        return CustomizationNearMiss(function: function, requirement: requirement, shape: .perKey(property: property))
      }
      return nil
    }
  }
}
