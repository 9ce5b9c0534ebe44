// The step player: which step is shown and how far its animation has got.
// tick(ms) is deterministic and separate from the clock that drives it, so
// tests and reduced motion can step it by hand.

export const defaults = {
  stepMs: 1600,  // one step's animation at speed 1
  holdMs: 700,   // a finished step stays this long while playing
};

export class Player {
  constructor(count, { onChange = () => {}, reducedMotion = false } = {}) {
    this.count = count;
    this.index = 0;
    this.progress = 1;  // 0 … 1 through the current step's animation
    this.playing = false;
    this.speed = 1;
    this.held = 0;
    this.reducedMotion = reducedMotion;
    this.onChange = onChange;
  }

  go(index, { animate = true } = {}) {
    const next = Math.max(0, Math.min(this.count - 1, index));
    const changed = next !== this.index;
    this.index = next;
    this.progress = animate && !this.reducedMotion ? 0 : 1;
    this.held = 0;
    this.onChange({ stepChanged: changed });
  }

  forward() {
    if (this.index < this.count - 1) this.go(this.index + 1);
    else this.pause();
  }

  back() {
    this.go(this.index - 1, { animate: false });
  }

  play() {
    if (this.playing) return;
    if (this.index === this.count - 1 && this.progress >= 1) this.go(0);
    this.playing = true;
    this.onChange({ stepChanged: false });
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    this.onChange({ stepChanged: false });
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  // Advance the clock by ms; true while something is moving.
  tick(ms) {
    if (this.progress < 1) {
      this.progress = Math.min(1, this.progress + (ms * this.speed) / defaults.stepMs);
      this.onChange({ stepChanged: false });
      return true;
    }
    if (!this.playing) return false;
    this.held += ms * this.speed;
    const hold = this.reducedMotion ? defaults.stepMs : defaults.holdMs;
    if (this.held >= hold) this.forward();
    return this.playing;
  }
}

// The clock: requestAnimationFrame ticks while the player has something to
// animate. A frame that throws must not leave the clock marked as running.
const running = new WeakSet();

export function drive(player) {
  if (running.has(player)) return;
  running.add(player);
  let last = performance.now();
  const frame = (now) => {
    let moving = false;
    const start = performance.now();
    try {
      moving = player.tick(Math.max(0, Math.min(100, now - last)));
      last = now;
    } finally {
      // `make bench` collects what each frame costs when it asks to
      globalThis.__attentionFrameTimes?.push(performance.now() - start);
      if (moving) requestAnimationFrame(frame);
      else running.delete(player);
    }
  };
  requestAnimationFrame(frame);
}
