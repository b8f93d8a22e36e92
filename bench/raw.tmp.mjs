import { chromium } from 'playwright';
for (let i=0;i<4;i++){
let t=performance.now(); const lap=(n)=>{const x=performance.now(); console.log(n, (x-t).toFixed(0)); t=x;};
const b = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium-headless-shell', headless: true }); lap('launch');
const c = await b.newContext(); lap('newContext');
const p = await c.newPage(); lap('newPage');
await p.goto('data:text/html,<title>x</title>'); lap('goto');
const c2 = await b.newContext(); const p2 = await c2.newPage(); lap('second ctx+page');
await b.close();
}
