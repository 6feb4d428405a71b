// 浏览器测试：版面和分量（issue 18 的第二轮）。每一页没有脚本错误、没有失败的请求（favicon 也算）、手机宽度不横向溢出；
// 桌面上代码、差异、回放用满宽度，长行折行、一行也不用横向滚动；手机上回放的控制条一直在眼前、窗口紧凑、标签一排放下；
// s12 这一页不超过 600 KB（不压缩、不预取，课文里的图另算），代码和差异只传一遍，服务器会压缩。
import { join } from "node:path";
import type { Page, Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PAGES, PHONE, SHOTS, at, live, open, overflowX, problemsOf, replay, server, sitePath, useReader } from "./browser.ts";

useReader();

/** s12 一页（HTML、脚本、样式、图标，不压缩、不算预取）的上限：issue 18 的目标。课文里的图不算在里面，它们各有自己的上限。 */
const PAGE_BUDGET = 600_000;

/** 课文里的一张图（Mermaid 画好的 SVG，/lp/diagrams/）的上限（D64；s12 的那张 11.5 KB）。图是 loading=lazy 的，滚到它附近才下载。 */
const DIAGRAM_BUDGET = 16_000;

/** 课文里的图：滚没滚到、懒加载赶没赶上，都不该改变页面大小那一条的结论，所以它们另算。 */
const isDiagram = (path: string): boolean => path.startsWith("/lp/diagrams/");

/** 桌面上 s04 一页：正文那一栏的左边到旁边目录的右边有多宽（代码、差异、回放该用满的宽度），正文那一栏本身多宽。 */
async function desktopWidths(page: Page): Promise<{ full: number; column: number }> {
  const geometry = await page.evaluate(() => {
    const rect = (sel: string): DOMRect | undefined => document.querySelector(sel)?.getBoundingClientRect();
    return { container: rect(".content-container"), aside: rect(".VPDoc .aside") };
  });
  const containerLeft = geometry.container?.left ?? 0;
  const asideRight = geometry.aside?.right ?? 0;
  expect(asideRight).toBeGreaterThan(containerLeft);
  return { full: asideRight - containerLeft, column: geometry.container?.width ?? 0 };
}

/**
 * 在浏览器里量代码框里的每一行：哪些行的字超出了框的右边（看得见的地方到框的右边为止；折行处那个空格照 pre-wrap 的规矩
 * 挂在行尾的留白里，不算藏起来的字），折成几行的行的代码（缩进之后）从哪开始、折下来的续行从哪开始，框要不要横向滚动。
 * 交给 page.evaluate，所以不引用外面的任何东西。
 */
function measureLines(box: Element): { clipped: string[]; wrapped: { id: string; code: number; continuation: number }[]; scrolls: boolean } {
  const limit = box.getBoundingClientRect().right - 1;
  const lineHeight = parseFloat(getComputedStyle(box).lineHeight);
  const clipped: string[] = [];
  const wrapped: { id: string; code: number; continuation: number }[] = [];
  for (const line of box.querySelectorAll<HTMLElement>(".lp-code-inner div[id]")) {
    const range = document.createRange();
    range.selectNodeContents(line);
    if (range.getBoundingClientRect().right > limit) clipped.push(line.id);
    if (line.getBoundingClientRect().height < 1.5 * lineHeight) continue;
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let first: DOMRect | undefined;
    for (let node = walker.nextNode(); node !== null && first === undefined; node = walker.nextNode()) {
      const at = (node.textContent ?? "").search(/\S/);
      if (at < 0) continue;
      const one = document.createRange();
      one.setStart(node, at);
      one.setEnd(node, at + 1);
      first = one.getBoundingClientRect();
    }
    const rects = [...range.getClientRects()];
    const top = rects[0]?.top ?? 0;
    const continuation = Math.min(...rects.filter((r) => r.top > top + 2).map((r) => r.left));
    wrapped.push({ id: line.id, code: first?.left ?? 0, continuation });
  }
  return { clipped, wrapped, scrolls: box.scrollWidth > box.clientWidth };
}

describe("课程网站（真浏览器）：版面", () => {
  it("每一页：没有脚本错误、控制台错误和失败的请求（favicon 也算），手机宽度不横向溢出", async () => {
    for (const width of [PHONE, DESKTOP]) {
      for (const path of PAGES) {
        const page = await open(path, { width });
        if (path.startsWith("/s")) await live(page);
        expect(await page.locator('head link[rel="icon"]').getAttribute("href"), path).toBe(at("/favicon.svg"));
        if (width === PHONE) expect(await overflowX(page), `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
        expect(problemsOf(page), `${path} at ${width}px`).toEqual([]);
        await page.context().close();
      }
    }
    const icon = await fetch(`${server.url}${at("/favicon.svg")}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });

  it("桌面 1440px：代码用满宽度，旁边的目录让开；回到课文，目录回来", async () => {
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
    const width = await desktopWidths(page);
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    const codeBox = await page.locator(".lp-panel-code .lp-code").boundingBox();
    expect(codeBox?.width ?? 0).toBeGreaterThanOrEqual(width.full - 2);
    expect(codeBox?.width ?? 0).toBeGreaterThan(1.4 * width.column);
    await expect.poll(() => page.locator(".VPDoc").getAttribute("class")).toContain("lp-aside-off");
    await expect.poll(() => page.locator(".VPDoc .aside").evaluate((el) => getComputedStyle(el).visibility)).toBe("hidden");
    await page.screenshot({ path: join(SHOTS, "s04-1440-code.png") });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.locator(".VPDoc").getAttribute("class")).not.toContain("lp-aside-off");
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("桌面 1440px：展开全部旧代码后换上高亮；长行折行，一行也不用横向滚动，续行缩进到这一行代码的开头之后，一个字也不藏", async () => {
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    // 第一轮时 400 行里有 44 行要横向滚动才看得全；课长大以后最长的那几行（一百四五十列）在这个宽度下怎么也放不下，所以宽屏上长行折行
    await page.locator('[data-action="unfold-all"]').click();
    // 展开的旧代码换上了高亮（页面里传的是没上色的原文，展开时取 /lp/lines/s04.json）
    await expect.poll(() => page.locator(".lp-panel-code details.lp-fold[data-plain]").count()).toBe(0);
    expect(await page.locator(".lp-panel-code details.lp-fold k-1").count()).toBeGreaterThan(50);
    const lines = await page.locator(".lp-panel-code .lp-code").evaluate(measureLines);
    expect(lines.clipped).toEqual([]);
    expect(lines.scrolls).toBe(false);
    expect(lines.wrapped.length).toBeGreaterThan(0);
    for (const w of lines.wrapped) expect(w.continuation, `${w.id}: the wrapped part starts left of the line's code`).toBeGreaterThan(w.code);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("桌面 1440px：差异（合并、并排）和回放用满宽度，合并视图的长行也折行", async () => {
    const page = await open("/s04.html", { width: DESKTOP });
    await live(page);
    const { full } = await desktopWidths(page);
    await page.locator('label[for="lp-tab-s04-diff"]').click();
    expect((await page.locator('.lp-panel-diff [data-view="unified"]').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(full - 2);
    expect(await page.locator('.lp-panel-diff [data-view="unified"]').evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(false);
    await page.locator('.lp-panel-diff [data-action="split"]').click();
    expect((await page.locator('.lp-panel-diff [data-view="split"]').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(full - 2);
    await page.locator(".lp-tabs").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: join(SHOTS, "s04-1440-diff-split.png") });
    await page.locator('.lp-panel-diff [data-action="unified"]').click();
    await page.locator('label[for="lp-tab-s04-code"]').click();
    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    expect((await page.locator(".lp-replay-live").boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(full - 2);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });

  it("手机 390px：回放每走一步，控制条和当前这一步都在屏幕上；窗口紧凑；标签一排放下", async () => {
    const page = await open("/s04.html", { width: PHONE });
    await live(page);
    // 代码的三个标签、回放的按钮、回放的窗口标签，各自一排
    const rows = async (selector: string): Promise<number> =>
      page.locator(selector).evaluateAll((els) => new Set(els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => Math.round(e.getBoundingClientRect().top))).size);
    expect(await rows(".lp-tab-label")).toBe(1);
    expect(await rows(".lp-replay-controls .lp-btn")).toBe(1);
    expect(await rows(".lp-pane-tabs button")).toBe(1);
    const code = page.locator(".lp-panel-code .lp-code");
    expect(await code.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, "s04-390-code.png") });

    await page.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    const viewport = page.viewportSize() ?? { width: PHONE, height: 844 };
    let tallest = 0;
    for (let i = 0; i < replay.steps.length - 1; i++) {
      await page.locator('[data-action="next"]').click();
      const g = await page.evaluate(() => ({
        bar: document.querySelector(".lp-replay-bar")?.getBoundingClientRect().toJSON() as DOMRect,
        card: document.querySelector(".lp-replay-step")?.getBoundingClientRect().toJSON() as DOMRect,
        panes: document.querySelector(".lp-replay-panes")?.getBoundingClientRect().toJSON() as DOMRect,
        height: document.querySelector(".lp-replay-live")?.getBoundingClientRect().height ?? 0,
      }));
      expect(g.bar.top, `step ${i + 2}: controls above the screen`).toBeGreaterThanOrEqual(0);
      expect(g.bar.bottom, `step ${i + 2}: controls below the screen`).toBeLessThanOrEqual(viewport.height);
      expect(g.card.top, `step ${i + 2}: step hidden under the controls`).toBeGreaterThanOrEqual(g.bar.bottom - 1);
      expect(g.card.top, `step ${i + 2}: step below the fold`).toBeLessThan(viewport.height - 120);
      expect(g.panes.top, `step ${i + 2}: history/terminal below the fold`).toBeLessThan(viewport.height - 60);
      tallest = Math.max(tallest, g.height);
      if (i === 3) await page.screenshot({ path: join(SHOTS, "s04-390-replay.png") });
    }
    // 第一轮时回放在手机上有 830–1130px 高；现在控制条、当前这一步、一个小窗口，一屏放得下
    expect(tallest).toBeLessThanOrEqual(viewport.height - 48);
    // 小窗口用标签切：终端
    await page.locator('[data-pane-tab="terminal"]').click();
    expect(await page.locator('[data-role="terminal"]').isVisible()).toBe(true);
    expect(await page.locator('[data-role="history"]').isVisible()).toBe(false);
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    expect(problemsOf(page)).toEqual([]);
    await page.context().close();
  });
});

describe("课程网站（真浏览器）：页面的分量", () => {
  it("页面大小：s12 这一页不超过 600 KB（不压缩、不预取），代码和差异只传一遍，site:serve 压缩文字", async () => {
    const page = await open("/s12.html", { width: DESKTOP, wait: "networkidle" });
    await live(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    const responses: Response[] = [];
    // 重新载入一次，数这一次的每个回应（第一次打开时的监听晚于首页的请求）
    page.on("response", (r) => responses.push(r));
    await page.reload({ waitUntil: "networkidle" });
    await live(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    let bytes = 0;
    let transferred = 0;
    const rows: string[] = [];
    let counted = 0;
    for (const r of responses) {
      const path = sitePath(r.url());
      // 文字类的回应都压缩了
      if (/\.(html|js|css|json|svg)$/.test(path) || path === "/") expect(r.headers()["content-encoding"], path).toMatch(/^(br|gzip)$/);
      if (isDiagram(path)) continue;
      const body = await r.body();
      bytes += body.length;
      transferred += (await r.request().sizes()).responseBodySize;
      counted++;
      rows.push(`${path} ${body.length}`);
    }
    const paths = responses.map((r) => sitePath(r.url()));
    console.log(`s12 page: ${bytes} bytes uncompressed, ${transferred} bytes transferred, ${counted} responses (diagrams apart)`);
    // 不预取别的课，也不另取 s12 自己的代码片段（它已经在 HTML 里）
    expect(paths.filter((p) => /\/assets\/(?!s12\.)[^/]*\.md\./.test(p)), "prefetched other pages").toEqual([]);
    expect(paths.filter((p) => p.startsWith("/lp/") && p.endsWith(".html")), "fetched a fragment already in the HTML").toEqual([]);
    expect(bytes, rows.join("\n")).toBeLessThan(PAGE_BUDGET);
    // 图另算：页面上显示的每一张（浅色那份；深色那份不显示，也就不下载）都取一次，各自不超过上限
    const diagrams = await page.locator("figure.lp-diagram img.lp-diagram-light").evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).src));
    expect(diagrams.length).toBeGreaterThan(0);
    for (const src of diagrams) {
      const svg = await fetch(src, { headers: { "accept-encoding": "br, gzip" } });
      expect(svg.status, src).toBe(200);
      expect(svg.headers.get("content-encoding"), src).toMatch(/^(br|gzip)$/);
      expect((await svg.arrayBuffer()).byteLength, src).toBeLessThan(DIAGRAM_BUDGET);
    }
    // 代码和差异只在 HTML 里：这一课的脚本很小，里面也没有高亮过的代码行
    const chunk = responses.find((r) => /\/assets\/s12\.md\.[\w-]+\.lean\.js$/.test(r.url()));
    expect(chunk).toBeDefined();
    const script = (await chunk?.text()) ?? "";
    expect(script.length).toBeLessThan(60_000);
    expect(script).not.toContain("<div id=L");
    const html = (await responses.find((r) => sitePath(r.url()) === "/s12.html")?.text()) ?? "";
    expect(html.match(/<div id=L1[ >]/g)?.length).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, "s12-1440-top.png") });
    await page.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await expect.poll(() => page.locator(".VPDoc .aside").evaluate((el) => getComputedStyle(el).visibility)).toBe("hidden");
    await page.screenshot({ path: join(SHOTS, "s12-1440-code.png") });
    await page.context().close();
  });

  it("手机上的 s12：开头、代码和回放的截图，跳到本节的第一步，没有脚本错误和失败的请求", async () => {
    const phone = await open("/s12.html", { width: PHONE });
    await live(phone);
    await phone.screenshot({ path: join(SHOTS, "s12-390-top.png") });
    await phone.evaluate(() => document.getElementById("code")?.scrollIntoView());
    await phone.screenshot({ path: join(SHOTS, "s12-390-code.png") });
    await phone.evaluate(() => document.getElementById("replay")?.scrollIntoView());
    await phone.locator('[data-action="next-own"]').click();
    await phone.screenshot({ path: join(SHOTS, "s12-390-replay.png") });
    expect(problemsOf(phone)).toEqual([]);
    await phone.context().close();
  });
});
