// 浏览器测试：参考页和站内链接。每一页走一遍（crawl 只走一遍，下面几条测试共用它记下的东西）：参考页都在、有锚点，
// 课文里引用的编号链到它的解释、Pi 的路径链到 Pi 仓库的 v1.6.0，站内每个链接都通、锚点都在，没有一个出了 base。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_RE, type CodeIndex } from "../lib/cited-codes.ts";
import { SITE } from "../lib/course.ts";
import { PI_REPO, PI_TAG, isPiPath } from "../lib/refs.ts";
import { BASE, DESKTOP, PAGES, SHOTS, at, live, open, problemsOf, refs, server, sitePath, useReader } from "./browser.ts";

useReader();

type Crawl = {
  /** 每页的锚点（元素的 id）。 */
  ids: Map<string, Set<string>>;
  /** 每页正文里的链接。 */
  links: { from: string; href: string; text: string }[];
  /** 课页的文字里还没链上的编号（不在链接、代码、标题里）：「/s04.html: R4」。 */
  unlinked: string[];
  /** 课页正文里写成代码的 Pi 路径（packages/…），和它链到哪。 */
  piCodes: { from: string; text: string; href: string | null }[];
  /** 每一页的脚本错误、失败的请求和 404。 */
  problems: string[];
};

let crawled: Promise<Crawl> | undefined;
/** 桌面宽度下把站里每一页打开一遍，记下锚点、链接、没链上的编号和 Pi 路径（只走一遍）。 */
const crawl = (): Promise<Crawl> => (crawled ??= crawlSite());

async function crawlSite(): Promise<Crawl> {
  const out: Crawl = { ids: new Map(), links: [], unlinked: [], piCodes: [], problems: [] };
  for (const path of PAGES) {
    const page = await open(path, { width: DESKTOP });
    if (path.startsWith("/s")) await live(page);
    const found = await page.evaluate((re) => {
      const pattern = new RegExp(re, "g");
      const doc = document.querySelector(".vp-doc");
      const seen = {
        ids: [...document.querySelectorAll("[id]")].map((el) => el.id),
        links: [...document.querySelectorAll<HTMLAnchorElement>(".VPContent a[href]")].map((a) => ({ href: a.href, text: a.textContent ?? "" })),
        unlinked: [] as string[],
        pi: [...(doc?.querySelectorAll("code") ?? [])]
          .filter((c) => /^(\.\/)?packages\//.test(c.textContent ?? "") && c.closest("pre") === null)
          .map((c) => ({ text: c.textContent ?? "", href: c.closest("a")?.getAttribute("href") ?? null })),
      };
      // 课文里还没链上的编号：文字节点里，不在链接、代码、标题里
      if (doc !== null) {
        const walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const el = node.parentElement;
          if (el === null || el.closest("a, code, pre, h1, h2, h3, h4, h5, h6, .lp-raw, .lp-replay, .lp-compare") !== null) continue;
          for (const m of (node.textContent ?? "").matchAll(pattern)) seen.unlinked.push(m[1]);
        }
      }
      return seen;
    }, CODE_RE.source);
    out.ids.set(path, new Set(found.ids));
    for (const l of found.links) out.links.push({ from: path, ...l });
    if (/^\/s\d\d\.html$/.test(path)) {
      for (const code of found.unlinked) out.unlinked.push(`${path}: ${code}`);
      for (const p of found.pi) out.piCodes.push({ from: path, ...p });
    }
    for (const problem of problemsOf(page)) out.problems.push(`${path}: ${problem}`);
    await page.context().close();
  }
  return out;
}

/** 站内的一个链接哪里断了：出了 base、没有这一页、这一页上没有这个锚点、不是页面的文件取不到；没断是 undefined。 */
async function brokenLink(l: Crawl["links"][number], ids: Crawl["ids"]): Promise<string | undefined> {
  const url = new URL(l.href);
  if (!url.pathname.startsWith(BASE)) return `${l.from} → ${url.pathname} (outside ${BASE})`;
  if (!url.pathname.endsWith(".html") && !url.pathname.endsWith("/")) {
    // 不是页面的链接（流程图的 SVG）：文件要在
    const res = await fetch(url, { method: "HEAD" });
    return res.status === 200 ? undefined : `${l.from} → ${url.pathname} (${res.status})`;
  }
  const path = sitePath(l.href) === "/index.html" ? "/" : sitePath(l.href);
  const target = ids.get(path);
  if (target === undefined) return `${l.from} → ${url.pathname} (no such page)`;
  const hash = decodeURIComponent(url.hash.slice(1));
  return hash !== "" && !target.has(hash) ? `${l.from} → ${url.pathname}#${hash} (no such anchor) "${l.text}"` : undefined;
}

describe("课程网站（真浏览器）：参考资料，站内每个链接都通", () => {
  it("参考资料：每份一页、有锚点；课文里引用的编号都链上了（术语表里有的、有解释的一个不落）", async () => {
    expect(refs.map((r) => r.id)).toContain("evolution");
    expect(refs.map((r) => r.id)).toContain("differences");
    const { ids, unlinked } = await crawl();
    expect([...(ids.get("/differences.html") ?? [])].filter((id) => /^f\d+$/.test(id)).length).toBeGreaterThanOrEqual(13);
    if (refs.some((r) => r.id === "glossary")) {
      // 术语表：每个编号一个锚点（<a id="r1"></a>），课文里引用的每个编号都链上了
      const glossaryIds = ids.get("/glossary.html") ?? new Set();
      for (const code of ["r1", "r4", "u1", "d4", "f1"]) expect(glossaryIds.has(code), `GLOSSARY.md #${code}`).toBe(true);
      expect(unlinked.filter((u) => !u.includes("§")), "codes cited in lessons but not in GLOSSARY.md").toEqual([]);
    }
    const codes = JSON.parse(readFileSync(join(SITE, ".gen", "codes.json"), "utf8")) as CodeIndex;
    expect(unlinked.filter((u) => codes[u.split(": ")[1]] !== undefined)).toEqual([]);
    const page = await open("/differences.html#f3", { width: DESKTOP });
    expect(await page.locator("tr#f3").isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, "differences-f3.png") });
    await page.context().close();
  });

  it("站内每个链接都通、锚点都在，没有一个出了 base；每一页都没有脚本错误和失败的请求；编号链到它的解释", async () => {
    const { ids, links, problems } = await crawl();
    expect(problems).toEqual([]);
    const internal = links.filter((l) => l.href.startsWith(server.url));
    expect(internal.length).toBeGreaterThan(200);
    const broken: string[] = [];
    for (const l of internal) {
      const why = await brokenLink(l, ids);
      if (why !== undefined) broken.push(why);
    }
    expect(broken).toEqual([]);
    const codeLinks = internal.filter((l) => new RegExp(`^(?:${CODE_RE.source})$`).test(l.text) && /\/(glossary|evolution|differences)\.html#/.test(l.href));
    expect(codeLinks.length).toBeGreaterThan(10);
  });

  it("源码溯源里 Pi 的每个路径都链到 Pi 仓库的 v1.6.0；课文指向仓库文件的链接改成了站内页面", async () => {
    const { links, piCodes } = await crawl();
    expect(PI_TAG).toBe("v1.6.0");
    expect(piCodes.length).toBeGreaterThan(30);
    for (const p of piCodes) {
      const path = p.text.replace(/^\.\//, "");
      if (!isPiPath(path)) continue;
      expect(p.href, `${p.from}: ${p.text}`).toBe(`${PI_REPO}/${path.endsWith("/") ? "tree" : "blob"}/${PI_TAG}/${path.replace(/\/$/, "")}`);
    }
    // s04 的 fidelity/DIFFERENCES.md
    expect(links.some((l) => l.from === "/s04.html" && l.href === `${server.url}${at("/differences.html")}`)).toBe(true);
  });
});
