// SPDX-License-Identifier: Apache-2.0
// `import Dynamics` brings in what its API is written in: CGPoint, CGSize, CGRect, CGVector, CGFloat and
// TimeInterval come from Foundation, as `import UIKit` brings them in on Apple's platforms, so that ported
// code needs no second import.
@_exported import Foundation
