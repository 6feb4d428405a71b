// 站点挂在哪个路径下（VitePress 的 base）。npm run site 默认挂在根 `/`；放到 GitHub Pages 的项目页这种子路径下时，
// 构建前设 LEARN_PI_SITE_BASE=/learn-pi-agent/。站里所有自己写出来的链接、图片和取数据的地址都从这里拿前缀：
// 生成的 HTML 片段用 withSiteBase，浏览器里的组件用 VitePress 的 withBase（两者读的是同一个值）。

/** 设置 base 的环境变量。 */
export const BASE_ENV = "LEARN_PI_SITE_BASE";

/** 一个合法的 base：以 / 开头和结尾，中间是网址路径里不用转义的几段（没有 .、..、空段）。 */
const BASE_RE = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*\/)*$/;

/** 把写法放宽的 base（`learn-pi-agent`、`/learn-pi-agent`）规整成 `/learn-pi-agent/`；不像路径的抛错。 */
export function normalizeBase(raw: string | undefined): string {
  const value = (raw ?? "").trim();
  if (value === "" || value === "/") return "/";
  const base = `/${value.replace(/^\/+|\/+$/g, "")}/`;
  if (!BASE_RE.test(base) || base.split("/").some((part) => part === "." || part === "..")) {
    throw new Error(`${BASE_ENV}=${JSON.stringify(raw)} is not a URL path like /learn-pi-agent/`);
  }
  return base;
}

/** 这次构建的 base（读环境变量）。 */
export function siteBase(env: NodeJS.ProcessEnv = process.env): string {
  return normalizeBase(env[BASE_ENV]);
}

/** 站内的绝对路径（`/s04.html#L3`、`/lp/diagrams/x.svg`）加上 base；别的（`#L3`、`https://…`）原样返回。 */
export function withSiteBase(path: string, base: string = siteBase()): string {
  return path.startsWith("/") && !path.startsWith("//") ? `${base}${path.slice(1)}` : path;
}
