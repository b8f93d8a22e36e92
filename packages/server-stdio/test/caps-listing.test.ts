// Which tools --caps adds to tools/list, in both profiles, for a server started from those flags (what the tools do: packages/tools/test).
import { describe, expect, it } from 'vitest';
import { call, connectInProcess, expectError } from './helpers.js';

/** The names a server started with these flags lists. */
async function listed(flags: string[]): Promise<string[]> {
  const server = await connectInProcess(['--headless', ...flags]);
  try {
    return (await server.client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await server.close();
  }
}

describe('tools/list and --caps', () => {
  it('lists at most 27 tools by default (26 and run_steps), the agent tools among them and no capability tool', async () => {
    const plain = await connectInProcess(['--headless']);
    try {
      const names = (await plain.client.listTools()).tools.map((entry) => entry.name);
      expect(names.length).toBeLessThanOrEqual(27);
      for (const name of ['tabs', 'upload_file', 'drag', 'fill_form', 'handle_dialog', 'console_messages', 'emulate', 'run_steps'])
        expect(names).toContain(name);
      for (const name of ['network_requests', 'network_request', 'export_storage_state', 'cookies', 'save_pdf']) expect(names).not.toContain(name);
      expectError(
        await call(plain.client, 'save_pdf', { sessionId: 'x' }).catch(
          (error: Error) => ({ isError: true, json: { errorCode: 'INVALID_PARAMETERS', message: error.message } }) as never,
        ),
        'INVALID_PARAMETERS',
      );
    } finally {
      await plain.close();
    }
  });

  it('adds one group with --caps network, and every group with --caps all', async () => {
    const network = await listed(['--caps', 'network']);
    expect(network).toContain('network_requests');
    expect(network).toContain('network_request');
    expect(network).not.toContain('save_pdf');
    const all = await listed(['--caps', 'all']);
    for (const name of ['network_requests', 'network_request', 'export_storage_state', 'cookies', 'save_pdf']) expect(all).toContain(name);
  });
});

describe('--caps vision,network', () => {
  it('lists mouse, route and emulate in the default profile', async () => {
    const names = await listed(['--caps', 'vision,network']);
    for (const name of ['mouse', 'route', 'emulate']) expect(names).toContain(name);
  });

  it("lists the playwright profile's mouse, route and network state tools", async () => {
    const names = await listed(['--profile', 'playwright', '--caps', 'vision,network']);
    for (const name of [
      'browser_mouse_move_xy',
      'browser_mouse_click_xy',
      'browser_mouse_drag_xy',
      'browser_mouse_down',
      'browser_mouse_up',
      'browser_mouse_wheel',
      'browser_route',
      'browser_route_list',
      'browser_unroute',
      'browser_network_state_set',
    ])
      expect(names).toContain(name);
  });
});

describe('--caps storage,testing', () => {
  it('lists the storage and testing tools only with their caps', async () => {
    const names = await listed(['--caps', 'storage,testing']);
    for (const name of ['cookies', 'web_storage', 'export_storage_state', 'load_storage_state', 'verify', 'generate_locator']) expect(names).toContain(name);
    const defaults = await listed([]);
    for (const name of ['web_storage', 'load_storage_state', 'verify', 'generate_locator']) expect(defaults).not.toContain(name);
  });
});

describe('--caps unsafe,config,pdf', () => {
  it('lists run_code_unsafe, get_config and save_pdf in their groups only', async () => {
    const names = await listed([]);
    for (const name of ['run_code_unsafe', 'get_config', 'save_pdf']) expect(names).not.toContain(name);
    const grouped = await listed(['--caps', 'unsafe,config,pdf']);
    for (const name of ['run_code_unsafe', 'get_config', 'save_pdf']) expect(grouped).toContain(name);
  });
});
