// The task site's catalogue, journal, orders and accounts: generated from fixed seeds, so every run sees the same site.

export interface Product {
  id: string;
  name: string;
  category: string;
  price: number;
  /** The outlet's price for the same product (the price-comparison task). */
  outletPrice: number;
  description: string;
}

export interface Article {
  slug: string;
  title: string;
  author: string;
  minutes: number;
  date: string;
}

export interface Order {
  id: string;
  customer: string;
  amount: number;
  status: 'Pending' | 'Approved' | 'Shipped';
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

const KINDS: Record<string, string[]> = {
  Audio: ['Headphones', 'Earbuds', 'Speaker', 'Soundbar'],
  Wearables: ['Smartwatch', 'Fitness Band', 'Sport Watch'],
  Outdoor: ['Trail Runner', 'Rain Jacket', 'Daypack', 'Tent'],
  Home: ['Desk Lamp', 'Kettle', 'Coffee Grinder', 'Air Purifier'],
};
const BRANDS = ['Aurora', 'Nimbus', 'Ridgeline', 'Kestrel', 'Solace', 'Harbor', 'Tundra', 'Lumen'];

export const products: Product[] = (() => {
  const next = random(7);
  const list: Product[] = [];
  for (const [category, kinds] of Object.entries(KINDS)) {
    for (const kind of kinds) {
      for (const brand of BRANDS.slice(0, 3 + Math.floor(next() * 3))) {
        const model = pick(next, ['', ' 2', ' Pro', ' Lite', ' Max']);
        const price = Math.round(20 + next() * 380) - 0.01;
        const id = `p${list.length + 101}`;
        const name = `${brand} ${kind}${model}`;
        if (list.some((p) => p.name === name)) continue;
        list.push({
          id,
          name,
          category,
          price,
          outletPrice: Math.round(price * (0.7 + next() * 0.25)) - 0.01,
          description: `The ${name} is built for everyday use: ${pick(next, ['light', 'sturdy', 'quiet', 'water-resistant'])}, ${pick(next, ['repairable', 'compact', 'long-lasting'])} and covered by a two-year warranty.`,
        });
      }
    }
  }
  return list;
})();

const FIRST = ['Ada', 'Grace', 'Alan', 'Lin', 'Mira', 'Omar', 'Sofia', 'Kenji', 'Priya', 'Tomas', 'Noor', 'Elena', 'Jonas', 'Aiko', 'Rafael', 'Zoe'];
const LAST = ['Chen', 'Okafor', 'Lovelace', 'Hopper', 'Turing', 'Novak', 'Silva', 'Haddad', 'Kowalski', 'Nakamura', 'Patel', 'Berg', 'Duarte', 'Moreau'];
const TOPICS = ['trail', 'sleep', 'coffee', 'repair', 'winter', 'battery', 'commute', 'camping', 'noise', 'posture'];
const ANGLES = ['A field guide to', 'What we learned about', 'Ten myths about', 'The quiet science of', 'Getting started with', 'A year of'];

export const articles: Article[] = (() => {
  const next = random(11);
  const list: Article[] = [];
  for (let i = 0; list.length < 50; i += 1) {
    const title = `${pick(next, ANGLES)} ${pick(next, TOPICS)} ${pick(next, ['gear', 'habits', 'routes', 'budgets', 'kits'])}`;
    if (list.some((a) => a.title === title)) continue;
    const day = String(1 + (i % 28)).padStart(2, '0');
    list.push({
      slug: title.toLowerCase().replaceAll(' ', '-'),
      title,
      author: `${pick(next, FIRST)} ${pick(next, LAST)}`,
      minutes: 3 + Math.floor(next() * 15),
      date: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${day}`,
    });
  }
  return list;
})();

/** 1 500 orders, numbered A-10000 upwards (all the same length, so no number is part of another). */
export function makeOrders(): Order[] {
  const next = random(23);
  return Array.from({ length: 1500 }, (_, i) => ({
    id: `A-${10000 + i}`,
    customer: `${pick(next, FIRST)} ${pick(next, LAST)}`,
    amount: Math.round(next() * 200000) / 100,
    status: pick(next, ['Pending', 'Pending', 'Approved', 'Shipped'] as const),
  }));
}

export function money(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
