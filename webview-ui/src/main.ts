// Inspector webview entry (bundled to dist/webview.js; the stylesheet import becomes dist/webview.css).
import './styles/inspector.css';
import './styles/context.css';
import { InspectorApp } from './app';

const root = document.getElementById('app');
if (root) new InspectorApp(root);
