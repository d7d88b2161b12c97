import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
const [,, src, out, y, h, w] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: Number(w ?? 1440), height: 900 } });
await page.setContent(`<html><body style="margin:0"><img id="i" src="data:image/png;base64,${readFileSync(src).toString("base64")}" style="display:block"></body></html>`);
await page.waitForFunction(() => document.getElementById("i").complete);
await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: Number(y), width: Number(w ?? 1440), height: Number(h) } });
await browser.close();
