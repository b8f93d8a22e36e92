// Which tools --caps adds to tools/list, in both profiles, for a server started from those flags (what the tools do: packages/tools/test).
import { describe, expect, it } from 'vitest';
import { connectInProcess } from './helpers.js';

/** The names a server started with these flags lists. */
async function listed(flags: string[]): Promise<string[]> {
  const server = await connectInProcess(['--headless', ...flags]);
  try {
    return (await server.client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await server.close();
  }
}

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
