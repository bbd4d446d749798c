import { ApiHealthStatus } from '../../features/health/components/api-health-status.tsx';
import { useAuthState } from '../../lib/auth/auth-session.ts';

export function HomeScreen() {
  const { session } = useAuthState();
  return (
    <div className="stack">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title" className="hero__title">
          Tasklane
        </h1>
        <p className="hero__tagline">A realtime task board for small teams, with an API integrators love.</p>
        {session?.user.email && (
          <p className="muted" data-testid="signed-in-as">
            Signed in as {session.user.email}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="system-status-title">
        <h2 id="system-status-title" className="panel__heading">
          System status
        </h2>
        <ApiHealthStatus />
      </section>
    </div>
  );
}
