// A TEXT widget's markdown as HTML for the preview page, safely: raw HTML in
// the markdown is shown as text (markdown-it's `html: false`), and links to
// `javascript:`, `vbscript:` and most `data:` URLs are refused by its link
// check. The page's Content-Security-Policy also forbids inline scripts.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function markdownHtml(text: string): string {
  return md.render(text);
}
