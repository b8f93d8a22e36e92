// The person's mouse, wheel, keyboard and paste on the live picture, as PersonInput events: one script for the live page and the MCP App.

/**
 * Browser-side source of `captureInput(canvas, active, send, moveEveryMs)`, inlined into each page's script: it sends
 * what the person does on `canvas` while `active()` says they hold control, moves at most once per `moveEveryMs`
 * (drags as they come).
 */
export const CAPTURE_INPUT = `function captureInput(canvas, active, send, moveEveryMs) {
    function where(event) {
      const box = canvas.getBoundingClientRect();
      return { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height };
    }
    function modifiers(event) { return (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0); }
    const BUTTONS = ['left', 'middle', 'right'];
    function mouse(type) {
      return (event) => {
        if (!active()) return;
        event.preventDefault();
        if (type === 'down') canvas.focus();
        const point = where(event);
        send({ kind: 'mouse', type, x: point.x, y: point.y, button: BUTTONS[event.button] || 'left', clickCount: Math.max(1, event.detail || 1), modifiers: modifiers(event) });
      };
    }
    canvas.addEventListener('mousedown', mouse('down'));
    canvas.addEventListener('mouseup', mouse('up'));
    let lastMove = 0;
    canvas.addEventListener('mousemove', (event) => {
      if (!active()) return;
      const now = Date.now();
      if (event.buttons === 0 && now - lastMove < moveEveryMs) return;
      lastMove = now;
      const point = where(event);
      send({ kind: 'mouse', type: 'move', x: point.x, y: point.y, button: BUTTONS[[1, 4, 2].indexOf(event.buttons & 7)] || 'none', modifiers: modifiers(event) });
    });
    canvas.addEventListener('wheel', (event) => {
      if (!active()) return;
      event.preventDefault();
      const scale = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? canvas.clientHeight : 1;
      const point = where(event);
      send({ kind: 'wheel', x: point.x, y: point.y, deltaX: event.deltaX * scale, deltaY: event.deltaY * scale, modifiers: modifiers(event) });
    }, { passive: false });
    canvas.addEventListener('contextmenu', (event) => { if (active()) event.preventDefault(); });
    function key(type) {
      return (event) => {
        if (!active()) return;
        // Ctrl+V / Cmd+V is left to the browser, whose paste event sends the text itself.
        if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v') return;
        event.preventDefault();
        send({ kind: 'key', type, key: event.key, code: event.code, keyCode: event.keyCode, modifiers: modifiers(event) });
      };
    }
    canvas.addEventListener('keydown', key('down'));
    canvas.addEventListener('keyup', key('up'));
    canvas.addEventListener('paste', (event) => {
      if (!active()) return;
      event.preventDefault();
      const text = (event.clipboardData && event.clipboardData.getData('text/plain')) || '';
      if (text) send({ kind: 'text', text: text.slice(0, 10000) });
    });
  }`;
