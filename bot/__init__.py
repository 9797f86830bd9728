"""bugtable: the Discord host for the tabletop games in ``rules``."""
