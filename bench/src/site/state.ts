// What the task site remembers, and what the bench asks it afterwards to check each task: the cart, accounts, settings, orders, pages read.
import { makeOrders, type Order } from './data.js';

export interface Account {
  fullName: string;
  email: string;
  username: string;
  password: string;
  country: string;
  phone: string;
  terms: boolean;
}

export interface Settings {
  newsletter: boolean;
  productUpdates: boolean;
  securityAlerts: boolean;
  digest: string;
}

/** The member the settings task signs in as. */
export const MEMBER = { email: 'grace@example.test', password: 'Hopper#1906' };
/** A username that is already taken, so the sign-up task meets the form's validation. */
export const TAKEN_USERNAME = 'ada';

export interface SiteState {
  cart: Map<string, number>;
  accounts: Map<string, Account>;
  settings: Settings;
  /** Session cookie values of signed-in browsers. */
  signedIn: Set<string>;
  orders: Order[];
  /** Paths of every GET the site answered, in order. */
  visits: string[];
}

export function freshState(): SiteState {
  return {
    cart: new Map(),
    accounts: new Map([
      [TAKEN_USERNAME, { fullName: 'Ada Byron', email: 'ada@example.test', username: TAKEN_USERNAME, password: 'x', country: 'GB', phone: '1', terms: true }],
    ]),
    settings: { newsletter: true, productUpdates: true, securityAlerts: true, digest: 'Weekly' },
    signedIn: new Set(),
    orders: makeOrders(),
    visits: [],
  };
}
