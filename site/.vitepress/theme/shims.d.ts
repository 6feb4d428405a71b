// 让 tsc 认识 .vue 单文件组件（类型检查只看 .ts；组件本身由 VitePress 的 Vue 插件编译）。
declare module "*.vue" {
  import type { DefineComponent } from "vue";
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

// 样式表只为副作用而导入。
declare module "*.css";
