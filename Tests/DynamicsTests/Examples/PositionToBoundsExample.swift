// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// WWDC 2013's position-to-bounds mapping, written as its UIKit version is (types renamed): a custom item
/// whose `center` is the target view's size, so that a spring attachment and an instantaneous push on the
/// item make the view's bounds grow, oscillate and settle back.
final class PositionToBoundsMapping: DynamicItem {
    let target: DynamicBody

    init(target: DynamicBody) { self.target = target }

    /// The target's size, read and written as a point.
    var center: CGPoint {
        get { CGPoint(x: target.bounds.width, y: target.bounds.height) }
        set { target.bounds = CGRect(x: 0, y: 0, width: newValue.x, height: newValue.y) }
    }

    var bounds: CGRect { target.bounds }

    var transform: CGAffineTransform {
        get { .identity }
        set {}
    }
}

/// The WWDC sample's button animation: an attachment of frequency 2 Hz and damping 0.3 anchored at the
/// mapping's centre, and a push at π/4 of magnitude 2.
///
/// Differences from the UIKit version: `DynamicAnimator(referenceBounds:)`, the button a `DynamicBody`, and
/// the caller steps the animator.
final class PositionToBoundsExample {
    let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 568))
    let button = DynamicBody(frame: CGRect(x: 110, y: 260, width: 100, height: 50))
    let mapping: PositionToBoundsMapping

    init() {
        mapping = PositionToBoundsMapping(target: button)
        let attachment = AttachmentBehavior(item: mapping, attachedToAnchor: mapping.center)
        attachment.frequency = 2
        attachment.damping = 0.3
        animator.addBehavior(attachment)
        let push = PushBehavior(items: [mapping], mode: .instantaneous)
        push.angle = .pi / 4
        push.magnitude = 2
        animator.addBehavior(push)
    }
}
