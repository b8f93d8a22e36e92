// The six tasks: what the user asks, the agent's script (using only the task's words and what earlier answers said), and how the site confirms it was done.
import { articles, makeOrders, money, products } from '../site/data.js';
import { MEMBER, type SiteState, TAKEN_USERNAME } from '../site/state.js';
import type { Agent } from './agent.js';
import { type Found, parseFind, type Step } from './steps.js';

export interface Task {
  name: string;
  /** What the user asks, as the model reads it on every turn. */
  text(site: string): string;
  /** The agent's calls; answers what it tells the user. */
  run(agent: Agent, site: string): Promise<unknown>;
  /** Asks the site what happened: undefined when the task is done and the answer is right, else what is wrong. */
  verify(state: SiteState, answer: unknown): string | undefined;
}

const byName = (name: string) => {
  const product = products.find((p) => p.name === name);
  if (!product) throw new Error(`no product ${name}`);
  return product;
};

/** Every line of the finds' answers (a find answer may hold several matches and their context). */
async function finds(agent: Agent, steps: Parameters<Agent['run']>[0]): Promise<Found[]> {
  return (await agent.run(steps)).flatMap((text) => parseFind(text, agent.url));
}

function line(found: Found[], ...words: string[]): Found {
  const hit = found.find((f) => words.every((word) => f.text.includes(word)));
  if (!hit) throw new Error(`no line with ${words.join(' and ')} in ${JSON.stringify(found).slice(0, 500)}`);
  return hit;
}

const price = (text: string) => /\$[\d,]+\.\d\d/.exec(text)?.[0];

const SHOP_PRODUCT = byName('Nimbus Headphones Pro');

const shop: Task = {
  name: 'shop: search, open a product, add it to the cart',
  text: (site) => `In the shop at ${site}/shop, search for "headphones", open "${SHOP_PRODUCT.name}" and add one to the cart.`,
  async run(agent, site) {
    await agent.run([{ tool: 'navigate', url: `${site}/shop` }]);
    const box = line(await finds(agent, [{ tool: 'find', text: 'search' }]), 'searchbox');
    await agent.run([
      { tool: 'type', target: box.ref ?? '', text: 'headphones', submit: true },
      { tool: 'click', target: `text=${SHOP_PRODUCT.name}` },
      { tool: 'click', target: 'role=button[name="Add to cart"]' },
    ]);
    return undefined;
  },
  verify: (state) => (state.cart.size === 1 && state.cart.get(SHOP_PRODUCT.id) === 1 ? undefined : `cart holds ${JSON.stringify([...state.cart])}`),
};

const SIGNUP = {
  fullName: 'Ada Lovelace',
  email: 'ada.lovelace@example.test',
  password: 'Analytical1843',
  country: 'United Kingdom',
  phone: '+44 20 7946 0000',
  fallback: 'ada1815',
};

const TERMS = 'I accept the terms and the privacy policy';

const signup: Task = {
  name: 'sign-up: an 8-field form, validated',
  text: (site) =>
    `Create an account at ${site}/signup: Full name "${SIGNUP.fullName}", Email "${SIGNUP.email}", Username "${TAKEN_USERNAME}", New password and Confirm password "${SIGNUP.password}", Country "${SIGNUP.country}", Phone "${SIGNUP.phone}", and tick "${TERMS}". If the username is taken, use "${SIGNUP.fallback}".`,
  async run(agent, site) {
    const textbox = (name: string, value: string) => ({ target: `role=textbox[name="${name}"]`, name, type: 'textbox' as const, value });
    const passwords = [textbox('New password', SIGNUP.password), textbox('Confirm password', SIGNUP.password)];
    await agent.run([{ tool: 'navigate', url: `${site}/signup` }]);
    const submit = { tool: 'click', target: 'role=button[name="Create account"]' } as const;
    const found = await agent.run([
      {
        tool: 'fill',
        fields: [
          textbox('Full name', SIGNUP.fullName),
          textbox('Email', SIGNUP.email),
          textbox('Username', TAKEN_USERNAME),
          ...passwords,
          { target: 'role=combobox[name="Country"]', name: 'Country', type: 'combobox', value: SIGNUP.country },
          textbox('Phone', SIGNUP.phone),
          { target: `role=checkbox[name="${TERMS}"]`, name: TERMS, type: 'checkbox', value: true },
        ],
      },
      submit,
      // The task expects the username may be taken: the agent looks for the form's errors right after sending it.
      { tool: 'find', text: 'Error:' },
    ]);
    const errors = found.flatMap((text) => parseFind(text, agent.url));
    if (!errors.some((f) => f.text.includes('taken'))) throw new Error(`expected the username to be taken: ${JSON.stringify(errors)}`);
    // A form answered again keeps what was typed except the passwords.
    await agent.run([{ tool: 'fill', fields: [textbox('Username', SIGNUP.fallback), ...passwords] }, submit]);
    return undefined;
  },
  verify(state) {
    const account = state.accounts.get(SIGNUP.fallback);
    const expected = { ...SIGNUP, username: SIGNUP.fallback, country: 'GB', terms: true };
    const wrong = account && Object.entries(expected).filter(([key, value]) => key !== 'fallback' && account[key as keyof typeof account] !== value);
    return !account ? 'no account created' : wrong && wrong.length > 0 ? `wrong fields ${wrong.map(([key]) => key).join(', ')}` : undefined;
  },
};

const settings: Task = {
  name: 'settings: sign in, change a setting',
  text: (site) =>
    `Sign in at ${site}/account/login with email "${MEMBER.email}" and password "${MEMBER.password}", then in Notifications turn off the "Weekly newsletter" and save the changes.`,
  async run(agent, site) {
    await agent.run([{ tool: 'navigate', url: `${site}/account/login` }]);
    await agent.run([
      {
        tool: 'fill',
        fields: [
          { target: 'role=textbox[name="Email"]', name: 'Email', type: 'textbox', value: MEMBER.email },
          { target: 'role=textbox[name="Password"]', name: 'Password', type: 'textbox', value: MEMBER.password },
        ],
      },
      { tool: 'click', target: 'role=button[name="Sign in"]' },
      { tool: 'click', target: 'role=link[name="Notifications"]' },
      { tool: 'fill', fields: [{ target: 'role=checkbox[name="Weekly newsletter"]', name: 'Weekly newsletter', type: 'checkbox', value: false }] },
      { tool: 'click', target: 'role=button[name="Save changes"]' },
    ]);
    return undefined;
  },
  verify: ({ settings: s }) =>
    !s.newsletter && s.productUpdates && s.securityAlerts && s.digest === 'Weekly' ? undefined : `settings are ${JSON.stringify(s)}`,
};

const READ = [articles[7], articles[23], articles[41]].map((a) => {
  if (!a) throw new Error('the journal has fewer articles');
  return a;
});
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const journal: Task = {
  name: 'articles: read three named ones of 50',
  text: (site) =>
    `On the journal at ${site}/blog, read the articles ${READ.map((a) => `"${a.title}"`).join(', ')} and tell me each one's author and reading time.`,
  async run(agent, site) {
    await agent.run([{ tool: 'navigate', url: `${site}/blog` }]);
    const links = await finds(agent, [{ tool: 'findRegex', regex: READ.map((a) => escapeRegex(a.title)).join('|') }]);
    // Straight to each article where the find said where its link goes; else back to the list and click the title.
    const steps = READ.flatMap((a, i): Step[] => {
      const url = line(links, a.title).url;
      const open: Step[] = url
        ? [{ tool: 'navigate', url }]
        : [...(i > 0 ? [{ tool: 'navigate', url: `${site}/blog` } as const] : []), { tool: 'click', target: `role=link[name="${a.title}"]` }];
      return [...open, { tool: 'find', text: 'min read' }];
    });
    const bylines = (await agent.run(steps)).flatMap((text) => parseFind(text, agent.url));
    return READ.map((a) => {
      const byline = /By (.+?) · (\d+) min read/.exec(line(bylines, 'min read', a.author).text);
      return { title: a.title, author: byline?.[1], minutes: Number(byline?.[2]) };
    });
  },
  verify(state, answer) {
    const read = READ.every((a) => state.visits.includes(`/blog/${a.slug}`));
    const right = JSON.stringify(answer) === JSON.stringify(READ.map((a) => ({ title: a.title, author: a.author, minutes: a.minutes })));
    return read && right ? undefined : `read ${read}, answered ${JSON.stringify(answer)}`;
  },
};

/** A pending order of a customer with several orders, so the amount tells them apart. */
const ORDER = (() => {
  const orders = makeOrders();
  const order = orders.find((o, i) => i > 900 && o.status === 'Pending' && orders.filter((other) => other.customer === o.customer).length >= 3);
  if (!order) throw new Error('no order to approve');
  return order;
})();

const approval: Task = {
  name: 'table: approve one named row of 1 500',
  text: (site) => `In the orders admin at ${site}/admin/orders, approve the pending order of ${ORDER.customer} for ${money(ORDER.amount)}.`,
  async run(agent, site) {
    // The task names the customer and the amount: enough to write the row's selector without reading the table.
    await agent.run([{ tool: 'navigate', url: `${site}/admin/orders` }]);
    await agent.run([{ tool: 'click', target: `tr:has-text("${ORDER.customer}"):has-text("${money(ORDER.amount)}") >> role=button[name="Approve"]` }]);
    return undefined;
  },
  verify(state) {
    const before = makeOrders();
    const changed = state.orders.filter((o, i) => o.status !== before[i]?.status);
    return changed.length === 1 && changed[0]?.id === ORDER.id && changed[0].status === 'Approved' ? undefined : `changed ${JSON.stringify(changed)}`;
  },
};

const COMPARED = byName('Ridgeline Smartwatch 2');

const comparison: Task = {
  name: 'prices: one product in two shops',
  text: (site) =>
    `Compare the price of "${COMPARED.name}" in the shop's Wearables listing at ${site}/shop/category/wearables and in the outlet at ${site}/outlet: give both prices and say which is cheaper.`,
  async run(agent, site) {
    await agent.run([{ tool: 'navigate', url: `${site}/shop/category/wearables` }]);
    const [shopAnswer, outletAnswer] = await agent.run([
      { tool: 'find', text: COMPARED.name },
      { tool: 'navigate', url: `${site}/outlet` },
      { tool: 'find', text: COMPARED.name },
    ]);
    const read = (text: string | undefined) => price(line(parseFind(text ?? '', site), COMPARED.name, '$').text);
    return { shop: read(shopAnswer), outlet: read(outletAnswer) };
  },
  verify: (_state, answer) => {
    const expected = { shop: money(COMPARED.price), outlet: money(COMPARED.outletPrice) };
    return JSON.stringify(answer) === JSON.stringify(expected) ? undefined : `answered ${JSON.stringify(answer)}, the site says ${JSON.stringify(expected)}`;
  },
};

export const TASKS: Task[] = [shop, signup, settings, journal, approval, comparison];
