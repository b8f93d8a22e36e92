// A person's mouse and keyboard, sent to a tab through Chromium's Input domain: the view's coordinates scaled to the page's.
import type { CDPSession } from 'playwright';

/** Modifier keys held, as the Input domain counts them: Alt 1, Ctrl 2, Meta 4, Shift 8. */
type Modifiers = number;

/**
 * One input event from a person's view of a tab. `x` and `y` are where the pointer is as fractions of the view (0 at
 * the left or top edge, 1 at the right or bottom), so the view may show the page at any size.
 */
export type PersonInput =
  | { kind: 'mouse'; type: 'down' | 'up' | 'move'; x: number; y: number; button?: MouseButton; clickCount?: number; modifiers?: Modifiers }
  | { kind: 'wheel'; x: number; y: number; deltaX: number; deltaY: number; modifiers?: Modifiers }
  /** `key` and `code` as a browser's KeyboardEvent has them; `keyCode` its legacy number, which Chromium still needs for keys such as Backspace. */
  | { kind: 'key'; type: 'down' | 'up'; key: string; code: string; keyCode?: number; modifiers?: Modifiers }
  /** Text typed at once: a paste, or what an input method composed. */
  | { kind: 'text'; text: string };

type MouseButton = 'left' | 'middle' | 'right' | 'none';

/** The size of the page's visible area in CSS pixels: what the view's fractions are scaled to. */
export interface ViewportSize {
  width: number;
  height: number;
}

const BUTTON_BITS: Record<MouseButton, number> = { none: 0, left: 1, right: 2, middle: 4 };
const CTRL = 2;
const META = 4;
/** Keys whose keyDown types a character though their `key` is a name. */
const TYPED_BY_NAME: Record<string, string> = { Enter: '\r' };

/** Sends one input event to the page behind `cdp`, whose visible area is `viewport`. */
export async function dispatchPersonInput(cdp: CDPSession, input: PersonInput, viewport: ViewportSize): Promise<void> {
  switch (input.kind) {
    case 'mouse': {
      const button = input.button ?? 'left';
      await cdp.send('Input.dispatchMouseEvent', {
        type: input.type === 'down' ? 'mousePressed' : input.type === 'up' ? 'mouseReleased' : 'mouseMoved',
        ...scaled(input, viewport),
        button: input.type === 'move' ? 'none' : button,
        // While a button is held a move drags; the Input domain learns which buttons are down from this mask.
        buttons: input.type === 'down' || input.type === 'move' ? BUTTON_BITS[button] : 0,
        clickCount: input.type === 'move' ? 0 : clamp(input.clickCount ?? 1, 1, 3),
        modifiers: input.modifiers ?? 0,
      });
      return;
    }
    case 'wheel':
      await cdp.send('Input.dispatchMouseEvent', {
        type: 'mouseWheel',
        ...scaled(input, viewport),
        deltaX: finite(input.deltaX),
        deltaY: finite(input.deltaY),
        modifiers: input.modifiers ?? 0,
      });
      return;
    case 'key': {
      const modifiers = input.modifiers ?? 0;
      const common = { key: input.key, code: input.code, windowsVirtualKeyCode: input.keyCode ?? 0, modifiers };
      if (input.type === 'up') {
        await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
        return;
      }
      // A shortcut (Ctrl or Meta held) types nothing; a printable key types itself.
      const shortcut = (modifiers & (CTRL | META)) !== 0;
      const text = shortcut ? undefined : (TYPED_BY_NAME[input.key] ?? ([...input.key].length === 1 ? input.key : undefined));
      await cdp.send(
        'Input.dispatchKeyEvent',
        text === undefined ? { type: 'rawKeyDown', ...common } : { type: 'keyDown', ...common, text, unmodifiedText: text },
      );
      return;
    }
    case 'text':
      await cdp.send('Input.insertText', { text: input.text });
  }
}

/** The pointer's place in the page's CSS pixels. */
function scaled(point: { x: number; y: number }, viewport: ViewportSize): { x: number; y: number } {
  return { x: clamp(point.x, 0, 1) * viewport.width, y: clamp(point.y, 0, 1) * viewport.height };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, finite(value)));
}

function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
