// handle_dialog: how the session answers the page's next JavaScript dialog (alert, confirm, prompt, beforeunload).
import { z } from 'zod';
import { sessionOutput } from '../framework/response.js';
import { sessionIdSchema } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';
import { defined } from '@sessionwright/session-core/parts';

export const handleDialog = defineSessionTool({
  name: 'handle_dialog',
  title: 'Answer dialogs',
  description: 'Sets how the next dialog is answered; call before the action that opens it.',
  notes:
    'Answers the next dialog (alert, confirm, prompt, beforeunload) with accept (OK, with promptText for a prompt; default the ' +
    "prompt's own value) or dismiss (Cancel). " +
    'Call it BEFORE the action that opens the dialog, e.g. handle_dialog {accept: true} then click the "Delete" button whose confirm() you want to confirm. ' +
    'With persist: true every dialog from now on is answered that way, until the next handle_dialog. ' +
    'Without it, dialogs never block anyway: alerts and beforeunload are accepted, confirm and prompt dismissed. Every result ' +
    'lists the dialogs that came in dialogs (type, message, how answered). ' +
    'If no dialog comes, nothing happens and the setting waits for the next one. Errors: INVALID_PARAMETERS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: z.strictObject({
    sessionId: sessionIdSchema,
    accept: z.boolean().describe('true: OK; false: Cancel.'),
    promptText: z.string().max(10_000).optional().describe('For a prompt.'),
    persist: z.boolean().optional().describe('Not just the next dialog.'),
  }),
  output: sessionOutput({ success: z.literal(true), message: z.string() }),
  kind: 'action',
  errors: ['INVALID_PARAMETERS', 'SESSION_NOT_FOUND', 'SESSION_EXPIRED', 'BROWSER_ERROR'],
  async handler({ accept, promptText, persist = false }, _page, response) {
    const session = response.session;
    const verb = accept ? `accepted${promptText === undefined ? '' : ` with ${JSON.stringify(promptText.slice(0, 100))}`}` : 'dismissed';
    // A dialog held open (a profile that holds them) is answered now; otherwise the answer waits for the next dialog.
    const open = session.modal.state;
    if (open?.type === 'dialog') {
      await session.modal.answerDialog(accept, promptText);
      if (persist) session.modal.setDialogAnswer({ accept, ...defined({ promptText }), persist: true });
      return { success: true as const, message: `The open ${open.dialogType} dialog was ${verb}.${persist ? ` Every later dialog will be ${verb} too.` : ''}` };
    }
    session.modal.setDialogAnswer({ accept, ...defined({ promptText }), persist });
    return {
      success: true as const,
      message: persist ? `Every dialog from now on will be ${verb}.` : `The next dialog will be ${verb}. Now do the action that opens it.`,
    };
  },
});
