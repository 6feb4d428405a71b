// npm run site:serve：在 http://127.0.0.1:4173 看 npm run site 生成的站点（PORT=… 换端口）。站点挂在构建时的 base 下
// （LEARN_PI_SITE_BASE=/learn-pi-agent/ npm run site 构建的，就在 http://127.0.0.1:4173/learn-pi-agent/）。
import { existsSync } from "node:fs";
import { join } from "node:path";
import { builtBase } from "./lib/built-base.ts";
import { SITE } from "./lib/course.ts";
import { serveStatic } from "./lib/static-server.ts";

const dist = join(SITE, "dist");
if (!existsSync(join(dist, "index.html"))) {
  console.error("site/dist 还不存在：先跑 npm run site");
  process.exit(1);
}
const server = await serveStatic(dist, Number(process.env.PORT ?? 4173), "127.0.0.1", builtBase());
console.log(`课程网站：${server.url}${server.base}  （Ctrl+C 停止）`);
