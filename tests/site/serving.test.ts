// 站点挂在哪个路径下（base，site/lib/base.ts）和静态服务器（site/lib/static-server.ts）：按 Accept-Encoding 压缩，
// 只在 base 下给文件。
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pickEncoding, serveStatic } from "../../site/lib/static-server.ts";
import { BASE_ENV, normalizeBase, siteBase, withSiteBase } from "../../site/lib/base.ts";

describe("站点的 base 和静态服务器", () => {
  it("站点服务器按 Accept-Encoding 选压缩", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip")).toBe("gzip");
    expect(pickEncoding(undefined)).toBe("identity");
    expect(pickEncoding("identity")).toBe("identity");
  });

  it("base：LEARN_PI_SITE_BASE 规整成 /x/ 的样子，不像网址路径的拒绝；站内的绝对路径加上它，别的原样", () => {
    expect(siteBase({})).toBe("/");
    expect(siteBase({ [BASE_ENV]: "" })).toBe("/");
    for (const raw of ["learn-pi-agent", "/learn-pi-agent", "/learn-pi-agent/", " learn-pi-agent/ "]) expect(normalizeBase(raw)).toBe("/learn-pi-agent/");
    expect(normalizeBase("/a/b.c/")).toBe("/a/b.c/");
    for (const bad of ["/a b/", "/../x/", "/a/./", "https://example.com/", "/a//b/", "/a?b/", "/a#b/"]) expect(() => normalizeBase(bad), bad).toThrow(BASE_ENV);
    expect(withSiteBase("/s04.html#L3", "/learn-pi-agent/")).toBe("/learn-pi-agent/s04.html#L3");
    expect(withSiteBase("/", "/learn-pi-agent/")).toBe("/learn-pi-agent/");
    expect(withSiteBase("/s04.html", "/")).toBe("/s04.html");
    for (const other of ["#L3", "https://github.com/x", "//cdn.example/x", "s04.html"]) expect(withSiteBase(other, "/learn-pi-agent/")).toBe(other);
  });

  it("站点服务器只在 base 下给文件：base 之外 404，少了结尾斜杠的 base 转到首页", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lp-serve-"));
    writeFileSync(join(dir, "index.html"), "home");
    writeFileSync(join(dir, "s04.html"), "s04");
    writeFileSync(join(dir, "404.html"), "none");
    const server = await serveStatic(dir, 0, "127.0.0.1", "/learn-pi-agent/");
    try {
      const get = async (path: string): Promise<[number, string]> => {
        const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
        return [res.status, res.status === 301 ? (res.headers.get("location") ?? "") : await res.text()];
      };
      expect(await get("/learn-pi-agent/")).toEqual([200, "home"]);
      expect(await get("/learn-pi-agent/s04.html")).toEqual([200, "s04"]);
      expect(await get("/learn-pi-agent/s04")).toEqual([200, "s04"]);
      expect(await get("/learn-pi-agent?x=1")).toEqual([301, "/learn-pi-agent/?x=1"]);
      expect(await get("/s04.html")).toEqual([404, "none"]);
      expect(await get("/")).toEqual([404, "none"]);
      expect(await get("/learn-pi-agent-x/s04.html")).toEqual([404, "none"]);
      expect(await get("/learn-pi-agent/../s04.html")).toEqual([404, "none"]); // 网址先把 .. 规整掉：/s04.html，出了 base
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
