// The models, for every suite that imports this target.
@_exported import Models
