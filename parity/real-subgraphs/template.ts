// Renders a manifest template the way a subgraph repository's build script does with the `mustache`
// CLI (`mustache config.json subgraph.template.yaml > subgraph.yaml`). Only plain `{{name}}` tags,
// HTML-escaped as mustache does: that is all a network config fills in. Sections, partials and
// unescaped tags are refused rather than rendered wrongly. Dotted names (`{{ blocks.address }}`) look up
// nested values, as mustache does.
import { BaseError } from "../../lib/errors.js";

export class TemplateError extends BaseError {
  override name = "TemplateError";
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "/": "&#x2F;", "`": "&#x60;", "=": "&#x3D;" };

export type TemplateView = { [name: string]: string | number | TemplateView };

export function renderTemplate(template: string, view: TemplateView): string {
  return template.replace(/\{\{(\{?)\s*([^}]*?)\s*\}?\}\}/g, (tag, brace: string, name: string) => {
    if (brace || /^[#^/>&!=]/.test(name)) throw new TemplateError(`Unsupported mustache tag ${tag}: only {{name}} is rendered`);
    const value = lookup(view, name);
    if (value === undefined) throw new TemplateError(`The template uses {{${name}}}, which the network config does not set`, { details: { known: Object.keys(view) } });
    return String(value).replace(/[&<>"'`=/]/g, (c) => ESCAPES[c] ?? c);
  });
}

function lookup(view: TemplateView, name: string): string | number | undefined {
  let value: string | number | TemplateView | undefined = view;
  for (const part of name.split(".")) value = typeof value === "object" && Object.hasOwn(value, part) ? value[part] : undefined;
  return typeof value === "object" ? undefined : value;
}
