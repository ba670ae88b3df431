// SPDX-License-Identifier: Apache-2.0
/// The HTML and script of the `--output FILE.html` playback page (PlaybackWriter writes the run's data
/// between `head` and `tail`). Opened as `page.html#t=2.5`, it starts paused at 2.5 s. The page exposes the frame shown in `#frame` and the number of frames drawn
/// in `document.body.dataset.framesDrawn`, for tests.
enum PlaybackPage {
    static func head(title: String) -> String {
        let safe = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(safe) · dynamics</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            html, body { margin: 0; height: 100%; font: 13px system-ui, sans-serif; background: #fafafa; color: #222; }
            body { display: flex; flex-direction: column; }
            #bar { display: flex; gap: 10px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #ddd; background: #fff; }
            #bar input[type=range] { flex: 1; }
            #stage { flex: 1; position: relative; }
            canvas { position: absolute; inset: 0; width: 100%; height: 100%; }
            #status { font-variant-numeric: tabular-nums; min-width: 16em; }
            </style></head>
            <body data-frames-drawn="0">
            <div id="bar"><button id="play">Pause</button>
            <input id="time" type="range" min="0" value="0" step="1" aria-label="frame">
            <label>speed <select id="speed"><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option><option>4</option></select></label>
            <span id="status">frame <span id="frame">0</span> · <span id="clock">0.00</span> s</span></div>
            <div id="stage"><canvas id="canvas"></canvas></div>

            """
    }

    static let tail = """
        <script>
        "use strict";
        (function () {
          const meta = JSON.parse(document.getElementById("meta").textContent);
          // One base64 line per frame: x, y, angle per item (x = -32768: the item is gone).
          const lines = document.getElementById("frames").textContent.split("\\n").filter((l) => l.trim().length > 0);
          const frameData = lines.map((line) => {
            const raw = atob(line.trim()), bytes = new Uint8Array(raw.length);
            for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
            return new Int16Array(bytes.buffer, 0, bytes.length >> 1);
          });
          const frames = Math.max(1, Math.min(meta.frames, frameData.length));
          const canvas = document.getElementById("canvas"), ctx = canvas.getContext("2d");
          const slider = document.getElementById("time"), play = document.getElementById("play");
          const speed = document.getElementById("speed"), frameLabel = document.getElementById("frame");
          const clock = document.getElementById("clock");
          slider.max = String(frames - 1);
          let current = 0, playing = true, last = null, position = 0, drawn = 0;
          const secondsPerFrame = meta.every / meta.stepsPerSecond;
          // A link to a moment: #t=2.5 starts there, paused.
          const start = /t=([0-9.]+)/.exec(location.hash);
          if (start) {
            current = Math.min(frames - 1, Math.round(Number(start[1]) / secondsPerFrame));
            position = current;
            playing = false;
            play.textContent = "Play";
          }

          function fit() {
            const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
            canvas.width = Math.max(1, Math.round(r.width * dpr));
            canvas.height = Math.max(1, Math.round(r.height * dpr));
            draw();
          }

          function draw() {
            const [vx, vy, vw, vh] = meta.view;
            const s = Math.min(canvas.width / vw, canvas.height / vh) * 0.95;
            ctx.setTransform(1, 0, 0, 1, 0, 0);
            ctx.fillStyle = "#fafafa";
            ctx.fillRect(0, 0, canvas.width, canvas.height);
            ctx.setTransform(s, 0, 0, s, canvas.width / 2 - s * (vx + vw / 2), canvas.height / 2 - s * (vy + vh / 2));
            ctx.lineWidth = 1.5 / s;
            ctx.strokeStyle = "#555";
            const now = current * secondsPerFrame;
            meta.outlines.forEach((o, k) => {
              const end = meta.outlineEnds ? meta.outlineEnds[k] : null;
              if (end !== null && now >= end) return; // its collision behaviour was removed
              ctx.beginPath();
              ctx.moveTo(o[0], o[1]);
              for (let i = 2; i < o.length; i += 2) ctx.lineTo(o[i], o[i + 1]);
              ctx.stroke();
            });
            const data = frameData[current] || new Int16Array(0), [ox, oy] = meta.origin, u = meta.unit;
            ctx.lineWidth = 1 / s;
            for (let k = 0; k < data.length / 3; k++) {
              if (data[3 * k] === -32768) continue; // removed by the timeline
              const x = ox + data[3 * k] * u, y = oy + data[3 * k + 1] * u;
              const a = data[3 * k + 2] * (2 * Math.PI / 65536);
              ctx.save();
              ctx.translate(x, y);
              ctx.rotate(a);
              ctx.fillStyle = "hsl(" + ((k * 47) % 360) + ", 55%, 62%)";
              ctx.strokeStyle = "#333";
              for (const part of meta.shapes[k]) {  // [kind, x, y, angle, sizes or vertices…]
                ctx.save();
                ctx.translate(part[1], part[2]);
                ctx.rotate(part[3]);
                ctx.beginPath();
                if (part[0] === "r") ctx.rect(-part[4] / 2, -part[5] / 2, part[4], part[5]);
                else if (part[0] === "e") ctx.ellipse(0, 0, part[4] / 2, part[5] / 2, 0, 0, 2 * Math.PI);
                else if (part.length > 5) { ctx.moveTo(part[4], part[5]); for (let i = 6; i < part.length; i += 2) ctx.lineTo(part[i], part[i + 1]); ctx.closePath(); }
                ctx.fill();
                ctx.stroke();
                if (part[0] === "e") { ctx.beginPath(); ctx.moveTo(0, 0); ctx.lineTo(part[4] / 2, 0); ctx.stroke(); }
                ctx.restore();
              }
              ctx.restore();
            }
            frameLabel.textContent = String(current);
            clock.textContent = (current * secondsPerFrame).toFixed(2);
            slider.value = String(current);
            drawn += 1;
            document.body.dataset.framesDrawn = String(drawn);
          }

          // Timer-driven (about 60 times a second) rather than requestAnimationFrame, which headless
          // browsers and background tabs throttle; the position follows the clock either way.
          function tick() {
            const now = performance.now();
            if (playing && frames > 1) {
              if (last !== null) position += (now - last) / 1000 * Number(speed.value) / secondsPerFrame;
              if (position >= frames) position = 0;
              const next = Math.floor(position);
              if (next !== current) { current = next; draw(); }
            }
            last = now;
            setTimeout(tick, 16);
          }

          play.addEventListener("click", () => { playing = !playing; play.textContent = playing ? "Pause" : "Play"; last = null; });
          slider.addEventListener("input", () => { current = Number(slider.value); position = current; draw(); });
          window.addEventListener("resize", fit);
          fit();
          tick();
        })();
        </script>
        </body></html>

        """
}
