// Browser-side scripts the live page and the MCP App share: drawing frames, capturing a person's input, sending it in order.

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

/**
 * Browser-side source of `frameDrawer(canvas, drawn)`: a `draw(base64Jpeg)` that decodes frames one at a time; a frame
 * that arrives meanwhile replaces any still waiting, so a slow screen skips frames instead of falling behind.
 * `drawn(count)` follows each picture shown.
 */
export const DRAW_FRAMES = `function frameDrawer(canvas, drawn) {
    const paint = canvas.getContext('2d');
    let frames = 0;
    let decoding = false;
    let waiting = null;
    function draw(base64) {
      if (decoding) { waiting = base64; return; }
      decoding = true;
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      createImageBitmap(new Blob([bytes], { type: 'image/jpeg' })).then((image) => {
        if (canvas.width !== image.width || canvas.height !== image.height) { canvas.width = image.width; canvas.height = image.height; }
        paint.drawImage(image, 0, 0);
        image.close();
        frames += 1;
        canvas.dataset.frames = String(frames);
        drawn(frames);
      }).catch(() => {}).finally(() => {
        decoding = false;
        if (waiting) { const next = waiting; waiting = null; draw(next); }
      });
    }
    return draw;
  }`;

/**
 * Browser-side source of `inputQueue(active, deliver)`: `send(input)` queues a person's input while `active()`, and
 * `deliver(batch)` takes it in order, at most 100 events a batch; a pointer move replaces the one still waiting to
 * go. `drained()` settles once everything queued so far is delivered (input typed just before giving control back
 * reaches the page first).
 */
export const INPUT_QUEUE = `function inputQueue(active, deliver) {
    const queue = [];
    let sending = false;
    let drained = Promise.resolve();
    async function flush() {
      sending = true;
      while (queue.length > 0) await deliver(queue.splice(0, 100));
      sending = false;
    }
    function send(input) {
      if (!active()) return;
      const last = queue[queue.length - 1];
      if (input.kind === 'mouse' && input.type === 'move' && last && last.kind === 'mouse' && last.type === 'move') queue[queue.length - 1] = input;
      else queue.push(input);
      if (!sending) drained = flush();
    }
    return { send, drained: () => drained };
  }`;
