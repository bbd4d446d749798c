import { namespaceOf, type Channel } from './channel.ts';

/** The channels joined to each topic, per namespace (private or public), across all sockets. */
export class TopicHub {
  private readonly topics = new Map<string, Set<Channel>>();

  add(channel: Channel): void {
    const key = namespaceOf(channel.isPrivate, channel.subTopic);
    const channels = this.topics.get(key) ?? new Set<Channel>();
    channels.add(channel);
    this.topics.set(key, channels);
  }

  remove(channel: Channel): void {
    const key = namespaceOf(channel.isPrivate, channel.subTopic);
    const channels = this.topics.get(key);
    channels?.delete(channel);
    if (channels?.size === 0) this.topics.delete(key);
  }

  subscribers(isPrivate: boolean, subTopic: string): Channel[] {
    return [...(this.topics.get(namespaceOf(isPrivate, subTopic)) ?? [])];
  }
}
