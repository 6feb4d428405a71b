// 浏览器测试共用的底座：在本机起静态服务器（127.0.0.1，不碰外网），开无头 Chromium，像读者一样打开页面，
// 记下每一页的脚本错误、控制台错误、失败的请求、出了 base 的请求和 404（测试断言它们都没有）。
// 站点挂在构建时的 base 下（LEARN_PI_SITE_BASE=/learn-pi-agent/ npm run site 构建的就在 /learn-pi-agent/ 下，和 GitHub Pages 的项目页一样），
// 服务器只在 base 下给文件。测试里写的路径是站内路径（/s04.html），at() 加上 base。
// 截图存在 site/.screenshots/（git 不收）。Chromium 用 Debian 的 chromium 包（CHROMIUM_PATH 可改路径），playwright-core 不自带、也不下载浏览器。
// 每个 *.e2e.ts 开头调一次 useReader()：它在这个文件的测试之前起服务器和浏览器，之后关掉。
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from "playwright-core";
import { HANG_GUARD_MS } from "../../tooling/hang-guard.ts";
import { afterAll, beforeAll } from "vitest";
import { withSiteBase } from "../lib/base.ts";
import { builtBase } from "../lib/built-base.ts";
import { loadChapter } from "../lib/chapter.ts";
import { SITE, loadCourse } from "../lib/course.ts";
import { presentRefPages } from "../lib/refs.ts";
import type { Replay } from "../lib/replay-types.ts";
import { type StaticServer, serveStatic } from "../lib/static-server.ts";

const DIST = join(SITE, "dist");
export const SHOTS = join(SITE, ".screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// 无头、root 下要 --no-sandbox；这台机器没有外网，关掉 Chromium 自己的后台联网。Playwright 每次启动都给一个全新的临时 --user-data-dir。
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export const PHONE = 390;
export const DESKTOP = 1440;

export const lessons = loadCourse();
export const s04 = lessons.find((l) => l.id === "s04");
export const replayOf = (id: string): Replay => JSON.parse(readFileSync(join(SITE, "replay", `${id}.json`), "utf8")) as Replay;
export const replay = replayOf("s04");
export const refs = presentRefPages();
export const chapter = loadChapter();
/** site/dist 构建时的 base（设了 LEARN_PI_SITE_BASE 就必须是它）。 */
export const BASE = builtBase();
/** 站内路径 → 服务器上的网址路径：/s04.html → /learn-pi-agent/s04.html。 */
export const at = (path: string): string => withSiteBase(path, BASE);
/** 站里的每一页。 */
export const PAGES = ["/", ...lessons.map((l) => `/${l.id}.html`), ...(chapter === undefined ? [] : [`/${chapter.id}.html`]), ...refs.map((r) => `/${r.id}.html`), "/compare.html"];

/** useReader() 起的服务器和浏览器（这个文件的测试跑之前就有了）。 */
export let server: StaticServer;
export let browser: Browser;
/** 每个页面上出现的脚本错误、控制台错误和失败的请求。 */
const problems = new WeakMap<Page, string[]>();

export function useReader(): void {
  beforeAll(async () => {
    if (!existsSync(join(DIST, "index.html"))) throw new Error("site/dist is missing: run npm run site first");
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
    mkdirSync(SHOTS, { recursive: true });
    server = await serveStatic(DIST, 0, "127.0.0.1", BASE);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** 网址（或 href）→ 站内路径（/s04.html），可以带上查询串和锚点；不在这个服务器的 base 下就标出来（测试会把它当成问题）。 */
export function sitePath(href: string, withHash = false): string {
  const url = new URL(href, server.url);
  const path = url.origin === server.url && url.pathname.startsWith(BASE) ? `/${url.pathname.slice(BASE.length)}` : `outside ${BASE}: ${url.href}`;
  return withHash ? `${path}${url.search}${url.hash}` : path;
}

/** 一个浏览器上下文。playwright 的 goto、click、waitFor… 默认 30 秒就判失败；这里只留防卡死的上限，机器再忙也只是慢。 */
export async function newContext(options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(HANG_GUARD_MS);
  context.setDefaultNavigationTimeout(HANG_GUARD_MS);
  return context;
}

export async function open(path: string, options: { width?: number; javaScript?: boolean; wait?: "load" | "networkidle" } = {}): Promise<Page> {
  const phone = options.width !== undefined && options.width < 500;
  const context = await newContext({
    viewport: { width: options.width ?? 1280, height: phone ? 844 : 900 },
    javaScriptEnabled: options.javaScript ?? true,
    deviceScaleFactor: phone ? 2 : 1,
  });
  const page = await context.newPage();
  const seen: string[] = [];
  problems.set(page, seen);
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") seen.push(`console error: ${message.text()}`);
  });
  page.on("requestfailed", (request) => seen.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  // 站内的请求一个也不出 base（出了 base，在真的项目页上就是别人的网址）
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === server.url && !url.pathname.startsWith(BASE)) seen.push(`outside ${BASE}: ${request.url()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${server.url}${at(path)}`, { waitUntil: options.wait ?? "load" });
  return page;
}

export const problemsOf = (page: Page): string[] => problems.get(page) ?? [];

/** 等回放的组件挂好（静态的步骤表变成播放器）。 */
export async function live(page: Page): Promise<void> {
  await page.locator('.lp-replay[data-live="yes"]').waitFor();
}

/** 页面横向多出来的宽度（大于 0 就是要横向滚动）。 */
export const overflowX = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
