// A customer's page script using the installed @trustgate/web as an ES module; the pack test
// bundles it with esbuild from the consumer's folder and runs it in Chromium.
import { load, session } from '@trustgate/web';

const { projectId, endpoint } = document.documentElement.dataset;
const sdk = load({ projectId, endpoint });
window.signUp = () => session().then((handle) => handle.session_id);
/** true when load() gives the same SDK again, else the message of what it threw. */
window.loadAgain = (project) => {
  try {
    return load({ projectId: project, endpoint }) === sdk;
  } catch (err) {
    return err.message;
  }
};
