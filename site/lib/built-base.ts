// site/dist 是为哪个 base 构建的：npm run site 构建完写下（site/.vitepress/cache/base.json，git 不收，也不进 site/dist），
// npm run site:serve 和浏览器测试照它把站点放在同一个路径下。
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BASE_ENV, normalizeBase, siteBase } from "./base.ts";
import { SITE } from "./course.ts";

const FILE = join(SITE, ".vitepress", "cache", "base.json");

/** 记下 site/dist 是为哪个 base 构建的。 */
export function writeBuiltBase(base: string): void {
  mkdirSync(join(SITE, ".vitepress", "cache"), { recursive: true });
  writeFileSync(FILE, `${JSON.stringify({ base })}\n`);
}

/**
 * site/dist 是为哪个 base 构建的（没有记录就是 `/`）。设了 LEARN_PI_SITE_BASE 又和构建时的不一样就抛错：
 * 站点里的每个链接都带着构建时的 base，换一个路径放就全断了。
 */
export function builtBase(env: NodeJS.ProcessEnv = process.env): string {
  const built = existsSync(FILE) ? normalizeBase((JSON.parse(readFileSync(FILE, "utf8")) as { base?: string }).base) : "/";
  if (env[BASE_ENV] !== undefined && siteBase(env) !== built) {
    throw new Error(`site/dist was built for base ${built}, not ${siteBase(env)}: run ${BASE_ENV}=${siteBase(env)} npm run site`);
  }
  return built;
}
