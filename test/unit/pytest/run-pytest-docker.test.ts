// pytest in the task image (Docker) runs as the reference runs it, as on this machine
// (run-pytest.test.ts). A file of its own: it uses the shared engine's demo image, so it runs in
// the unit tier's serial lane, and the local runs of run-pytest.test.ts run in the pool.
import { after, describe, test } from 'node:test';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';
import { removeProject } from './python-project';
import { checkReferenceLike } from './reference-like';

const made: string[] = [];
after(() => made.forEach(removeProject));

describe('pytest runs as the reference runs it, and leaves the code folder as it was', () => {
  test('in the task image (Docker)', async () => {
    const conn = await dockerForTests();
    const docker = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'pytest-test' });
    try {
      await checkReferenceLike(docker, 'python', 'builtin', made);
      await checkReferenceLike(docker, 'python', 'junit', made);
    } finally {
      await docker.dispose();
    }
  });
});
