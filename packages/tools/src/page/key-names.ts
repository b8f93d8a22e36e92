// Key names press_key accepts, checked before any key goes down so a bad name never leaves a modifier held.
import { SessionError } from '@sessionwright/session-core';

/**
 * The multi-character names of Playwright's US keyboard layout (codes, key values and the modifier aliases),
 * as of Playwright 1.65. Single characters of the layout are accepted as themselves.
 */
const KEY_NAMES = [
  'Escape',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
  'Backquote',
  'Digit1',
  'Digit2',
  'Digit3',
  'Digit4',
  'Digit5',
  'Digit6',
  'Digit7',
  'Digit8',
  'Digit9',
  'Digit0',
  'Minus',
  'Equal',
  'Backslash',
  'Backspace',
  'Tab',
  'KeyQ',
  'KeyW',
  'KeyE',
  'KeyR',
  'KeyT',
  'KeyY',
  'KeyU',
  'KeyI',
  'KeyO',
  'KeyP',
  'BracketLeft',
  'BracketRight',
  'CapsLock',
  'KeyA',
  'KeyS',
  'KeyD',
  'KeyF',
  'KeyG',
  'KeyH',
  'KeyJ',
  'KeyK',
  'KeyL',
  'Semicolon',
  'Quote',
  'Enter',
  'ShiftLeft',
  'Shift',
  'KeyZ',
  'KeyX',
  'KeyC',
  'KeyV',
  'KeyB',
  'KeyN',
  'KeyM',
  'Comma',
  'Period',
  'Slash',
  'ShiftRight',
  'ControlLeft',
  'Control',
  'MetaLeft',
  'Meta',
  'AltLeft',
  'Alt',
  'Space',
  'AltRight',
  'AltGraph',
  'MetaRight',
  'ContextMenu',
  'ControlRight',
  'PrintScreen',
  'ScrollLock',
  'Pause',
  'PageUp',
  'PageDown',
  'Insert',
  'Delete',
  'Home',
  'End',
  'ArrowLeft',
  'ArrowUp',
  'ArrowRight',
  'ArrowDown',
  'AudioVolumeMute',
  'AudioVolumeDown',
  'AudioVolumeUp',
  'MediaTrackNext',
  'MediaTrackPrevious',
  'MediaPlayPause',
  'NumLock',
  'NumpadDivide',
  'NumpadMultiply',
  'NumpadSubtract',
  'Numpad7',
  'Numpad8',
  'Numpad9',
  'Numpad4',
  'Numpad5',
  'Numpad6',
  'NumpadAdd',
  'Numpad1',
  'Numpad2',
  'Numpad3',
  'Numpad0',
  'NumpadDecimal',
  'NumpadEnter',
  // Playwright's own alias: Meta on macOS, Control elsewhere.
  'ControlOrMeta',
];

const SINGLE_CHARACTERS = new Set('`~1!2@3#4$5%6^7&8*9(0)-_=+\\|qQwWeErRtTyYuUiIoOpP[{]}aAsSdDfFgGhHjJkKlL;:\'"\n\rzZxXcCvVbBnNmM,<.>/? ');

/** Case-insensitive lookup, plus the spellings models and people commonly use. */
const CANONICAL = new Map<string, string>([
  ...KEY_NAMES.map((name): [string, string] => [name.toLowerCase(), name]),
  ['ctrl', 'Control'],
  ['control', 'Control'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
  ['win', 'Meta'],
  ['option', 'Alt'],
  ['esc', 'Escape'],
  ['return', 'Enter'],
  ['del', 'Delete'],
  ['up', 'ArrowUp'],
  ['down', 'ArrowDown'],
  ['left', 'ArrowLeft'],
  ['right', 'ArrowRight'],
  ['pgup', 'PageUp'],
  ['pgdn', 'PageDown'],
  ['spacebar', 'Space'],
]);

/** Splits a chord the way Playwright does: on "+", except a "+" that is itself the key ("Control++"). */
function splitChord(chord: string): string[] {
  const parts: string[] = [];
  let building = '';
  for (const char of chord) {
    if (char === '+' && building) {
      parts.push(building);
      building = '';
    } else {
      building += char;
    }
  }
  parts.push(building);
  return parts;
}

/**
 * The chord in Playwright's spelling ("ctrl+a" → "Control+a"); INVALID_PARAMETERS naming the part it does not know.
 * Single characters keep their case, since "a" and "A" are different keys.
 */
export function normalizeKey(chord: string): string {
  const parts = splitChord(chord).map((part) => {
    if (SINGLE_CHARACTERS.has(part)) return part;
    const name = CANONICAL.get(part.toLowerCase());
    if (name) return name;
    throw new SessionError(
      'INVALID_PARAMETERS',
      `"${part.slice(0, 50)}" is not a key name. Use a key such as Enter, Tab, Escape, Backspace, Delete, ArrowDown, PageDown, Home, F5, a single character ("a", "/"), ` +
        'or a chord joined with + such as Control+A or Shift+Tab. To type text, use the type tool.',
      { details: { key: chord.slice(0, 200), unknownPart: part.slice(0, 50), examples: ['Enter', 'Tab', 'Escape', 'ArrowDown', 'Control+A', 'Shift+Tab'] } },
    );
  });
  return parts.join('+');
}
