import type { components } from '@api-spec/schema.d.ts';
import { useNavigate } from '@tanstack/react-router';
import { MenuItem, MenuLabel, MenuSeparator } from '../../../components/ui/menu.tsx';
import { paths } from '../../../config/paths.ts';

type Project = components['schemas']['Project'];

/** The workspace's boards as menu items: where the header's project links go on a phone. */
export function ProjectMenuItems({ slug, projects }: { slug: string; projects: readonly Project[] }) {
  const navigate = useNavigate();
  const active = projects.filter((project) => !project.archived);
  if (active.length === 0) return null;
  return (
    <>
      <MenuLabel>Projects</MenuLabel>
      {active.map((project) => (
        <MenuItem
          key={project.id}
          onSelect={() => void navigate({ to: paths.board, params: { slug, key: project.key } })}
        >
          {project.name}
        </MenuItem>
      ))}
      <MenuSeparator />
    </>
  );
}
