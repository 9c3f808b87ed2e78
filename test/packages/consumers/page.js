// A customer's page script using the installed @trustgate/web as an ES module; the pack test
// bundles it with esbuild from the consumer's folder and runs it in Chromium.
import { load, session } from '@trustgate/web';

const { projectId, endpoint } = document.documentElement.dataset;
load({ projectId, endpoint });
window.signUp = () => session().then((handle) => handle.session_id);
