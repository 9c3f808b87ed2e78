/**
 * The webhook-body validator that the webhook tests use: the envelope's two forms for each
 * event type, and the differences between the Face Match and ID Check results.
 */
import { defined } from '../helpers/defined';
import { example, validateWebhookBody, type Json } from '../helpers/spec';

type Obj = Record<string, Json>;

describe('validateWebhookBody', () => {
  it.each(['FaceMatchCompletedSuccess', 'FaceMatchCompletedError', 'IdCheckCompletedSuccess', 'IdCheckCompletedError'])(
    'when the %s example is checked, then it conforms',
    async (name) => {
      expect(await validateWebhookBody(await example(name))).toEqual([]);
    },
  );

  it('when a success envelope carries an error, or an error envelope carries data, then it is refused', async () => {
    const success = await example<Obj>('FaceMatchCompletedSuccess');
    success.error = { code: 'liveness_check_failed', message: 'x' };
    expect(await validateWebhookBody(success)).not.toEqual([]);
    const failure = await example<Obj>('FaceMatchCompletedError');
    failure.data = defined((await example<Obj>('FaceMatchCompletedSuccess')).data);
    expect(await validateWebhookBody(failure)).not.toEqual([]);
  });

  it('when the error code is not one of the five, then it is refused', async () => {
    const failure = await example<Obj>('IdCheckCompletedError');
    (failure.error as Obj).code = 'timeout';
    expect(await validateWebhookBody(failure)).not.toEqual([]);
  });

  it('when a Face Match result has ID Check members or booleans for its signals, then it is refused', async () => {
    const withDocument = await example<Obj>('FaceMatchCompletedSuccess');
    (withDocument.data as Obj).document_signals = defined(
      ((await example<Obj>('IdCheckCompletedSuccess')).data as Obj).document_signals,
    );
    expect(await validateWebhookBody(withDocument)).not.toEqual([]);
    const booleans = await example<Obj>('FaceMatchCompletedSuccess');
    ((booleans.data as Obj).device_network_signals as Obj).tor = false;
    expect(await validateWebhookBody(booleans)).not.toEqual([]);
  });

  it('when an ID Check result has Face Match members, then it is refused', async () => {
    const withLists = await example<Obj>('IdCheckCompletedSuccess');
    (withLists.data as Obj).lists = [];
    expect(await validateWebhookBody(withLists)).not.toEqual([]);
    const topLevelPhotos = await example<Obj>('IdCheckCompletedSuccess');
    (topLevelPhotos.data as Obj).photo_urls = { face: 'https://x.test/f' };
    expect(await validateWebhookBody(topLevelPhotos)).not.toEqual([]);
  });

  it('when the event type is unknown, then it is refused', async () => {
    const body = await example<Obj>('FaceMatchCompletedSuccess');
    body.event_type = 'verification.other.completed';
    expect(await validateWebhookBody(body)).toEqual(['unknown event_type "verification.other.completed"']);
  });
});
