#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# check-layers.pl [TOP]: the module's layering, checked over the tree.
#
# The layers, bottom to top, are the entries of the "Layers, bottom to
# top:" block of TOP/kreloc.h: a directory ("state/") or a file at the top
# of the tree ("kreloc_main.c"); any other file at the top (kreloc.h)
# belongs to the last one.  Every .c and .h in them is read; test/ is not
# (it is compiled only into a test build), and nothing else may be: each
# object Kbuild links into kreloc.ko must come from a layer or test/.
#
# A file uses a name when a kreloc_ or KRELOC_ identifier appears in its
# code (comments and strings aside) and another file defines it: a
# function, a variable, a macro, a struct, union or enum tag, an enum
# constant or a typedef (a .c file's static definitions are its own).  A
# prototype, an extern or a forward declaration defines nothing and uses
# nothing but its types.  The check fails, naming file, line and name, on
#   - a use of a name defined in a higher layer, or an #include of a
#     higher layer's header, or of anything under test/;
#   - a circle of uses among the files of one layer;
#   - a Kbuild object outside the layers and test/.
# Prints "layers: ok (N files, M uses)" and exits 0, else the problems and
# exits 1.
use strict;
use warnings;
use File::Basename qw(dirname);

my $top = shift // dirname(__FILE__) . '/..';
$top =~ s{/+$}{};
my @errors;

# --- the layers -----------------------------------------------------------
my (@layers, %rank);
{
	open(my $fh, '<', "$top/kreloc.h") or die "layers: $top/kreloc.h: $!\n";
	my $in = 0;
	while (<$fh>) {
		if (/Layers, bottom to top:/) { $in = 1; next; }
		next unless $in;
		last if m{^\s*\*\s*$} || m{\*/};
		next unless m{^\s*\*\s{2,}(\S+)\s};
		my $e = $1;
		next unless $e =~ m{^[A-Za-z0-9_.-]+/$} || $e =~ /\.[ch]$/;
		$e =~ s{/$}{};
		$rank{$e} = scalar @layers;
		push @layers, $e;
	}
	close $fh;
}
die "layers: no \"Layers, bottom to top:\" list in $top/kreloc.h\n" if @layers < 2;
my $toprank = $#layers;

# The layer of a path relative to TOP, or undef.
sub layer_of {
	my ($p) = @_;
	return $rank{$1} if $p =~ m{^([^/]+)/} && exists $rank{$1};
	return exists $rank{$p} ? $rank{$p} : $toprank if $p !~ m{/};
	return undef;
}

# --- the files ------------------------------------------------------------
my @files;
for my $l (@layers) {
	if (-d "$top/$l") {
		opendir(my $d, "$top/$l") or die "layers: $top/$l: $!\n";
		push @files, map { "$l/$_" } sort grep { /\.[ch]$/ && -f "$top/$l/$_" } readdir $d;
		closedir $d;
	}
}
{
	opendir(my $d, $top) or die "layers: $top: $!\n";
	push @files, sort grep { /\.[ch]$/ && !/_gen\.h$/ && -f "$top/$_" } readdir $d;
	closedir $d;
}

# Every object Kbuild links must come from a layer or test/.
if (open(my $kb, '<', "$top/Kbuild")) {
	my $text = do { local $/; <$kb> };
	close $kb;
	$text =~ s/\\\n/ /g;
	for my $line (split /\n/, $text) {
		next unless $line =~ /^\s*kreloc-\S+\s*[:+]?=\s*(.*)$/;
		for my $o (split ' ', $1) {
			next unless $o =~ /\.o$/;
			next if $o =~ m{^test/};
			(my $c = $o) =~ s/\.o$/.c/;
			push @errors, "Kbuild: $o is in no layer of kreloc.h (nor test/)"
				unless defined layer_of($c) && -f "$top/$c";
		}
	}
}

# --- reading C ------------------------------------------------------------
# Tokens of a file as [text, line]: comments, strings and character
# constants removed, preprocessor lines other than #define dropped (the
# #includes are returned apart).
sub tokens {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "layers: $path: $!\n";
	my $src = do { local $/; <$fh> };
	close $fh;
	my (@tok, @inc, @defines);
	my $n = 0;
	for (split /\n/, $src) {
		$n++;
		push @inc, [$1, $n] if /^\s*#\s*include\s*"([^"]+)"/;
	}
	# Comments, strings and character constants, keeping the newlines.
	$src =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')}{
		my $m = $1;
		$m =~ m{^["']} ? '""' : ($m =~ tr/\n//) ? "\n" x ($m =~ tr/\n//) : ' '
	}gse;
	my $line = 0;
	my @lines = split /\n/, $src, -1;
	for (my $i = 0; $i < @lines; $i++) {
		$line = $i + 1;
		my $l = $lines[$i];
		if ($l =~ /^\s*#/) {
			my $start = $line;
			while ($l =~ /\\$/ && $i + 1 < @lines) {
				$l =~ s/\\$/ /;
				$l .= $lines[++$i];
			}
			if ($l =~ /^\s*#\s*define\s+([A-Za-z_]\w*)(.*)$/) {
				push @defines, [$1, $start];
				# a macro's body: uses, outside the statements
				push @tok, map { [$_, $start, 1] } ($2 =~ /([A-Za-z_]\w*|\S)/g);
			}
			next;
		}
		push @tok, map { [$_, $line] } ($l =~ /([A-Za-z_]\w*|\S)/g);
	}
	return (\@tok, \@inc, \@defines);
}

my $ours = qr/^(?:kreloc|KRELOC)_\w+$/i;
my %keyword = map { $_ => 1 } qw(static extern inline const volatile noinline
	__always_inline __init __exit __weak __maybe_unused __must_check);

# Definitions and uses of one file: returns (\%defs, \@uses), defs
# name => [line, local], uses [name, line].
sub scan {
	my ($path, $is_c) = @_;
	my ($tok, $inc, $defines) = tokens("$top/$path");
	my (%defs, @uses);
	my $def = sub {
		my ($n, $line, $local) = @_;
		$defs{$n} //= [$line, $local] if $n =~ $ours;
	};
	$def->($_->[0], $_->[1], $is_c) for @$defines;

	my $depth = 0;
	my @stmt;	# the tokens of the statement at depth 0 so far
	my $enum_body = 0;
	my $enum_expect = 0;
	for my $t (@$tok) {
		my ($x, $line, $macro) = @$t;
		# Everything is a use, except declared names (decided below).
		push @uses, [$x, $line] if $x =~ $ours;
		next if $macro;
		if ($depth > 0) {
			if ($enum_body && $depth == 1) {
				if ($enum_expect && $x =~ /^[A-Za-z_]\w*$/) {
					$def->($x, $line, 0);
					$enum_expect = 0;
				} elsif ($x eq ',') {
					$enum_expect = 1;
				}
			}
			$depth++ if $x eq '{';
			$depth-- if $x eq '}';
			$enum_body = 0 if $depth == 0;
			next;
		}
		if ($x eq '{' || $x eq ';') {
			my $s = [@stmt];
			@stmt = ();
			my @w = map { $_->[0] } @$s;
			my $static = grep { $_ eq 'static' } @w;
			my $local = $is_c && $static;
			my $lastparen = -1;
			my $firstparen = -1;
			for my $i (0 .. $#w) {
				$firstparen = $i if $w[$i] eq '(' && $firstparen < 0;
			}
			if ($x eq '{') {
				my $eq = (grep { $_ eq '=' } @w) ? 1 : 0;
				if (!$eq && @w && $w[-1] eq ')') {
					# a function: the name before its parameter list
					my $d = 0;
					for (my $i = $#w; $i >= 0; $i--) {
						$d++ if $w[$i] eq ')';
						$d-- if $w[$i] eq '(';
						if ($d == 0) { $lastparen = $i; last; }
					}
					$def->($w[$lastparen - 1], $s->[$lastparen - 1][1], $local)
						if $lastparen > 0;
				} elsif ($eq) {
					my ($n) = grep { $w[$_] eq '=' } 0 .. $#w;
					my $k = $n - 1;
					$k-- while $k > 0 && $w[$k] =~ /^[\]\[\d]$|^\w+$/ &&
						$w[$k] !~ $ours;
					$def->($w[$k], $s->[$k][1], $local) if $k >= 0;
				} elsif (@w >= 2 && grep { /^(struct|union|enum)$/ } @w) {
					my ($n) = grep { $w[$_] =~ /^(struct|union|enum)$/ } 0 .. $#w;
					$def->($w[$n + 1], $s->[$n + 1][1], 0) if $n + 1 <= $#w;
					if ($w[$n] eq 'enum') {
						$enum_body = 1;
						$enum_expect = 1;
					}
				}
				$depth = 1;
				next;
			}
			# ';' at file scope: a declaration, a variable or a macro call
			next unless @w;
			if ($w[0] eq 'typedef') {
				my ($n) = grep { $w[$_] eq '*' && $_ > 0 && $w[$_ - 1] eq '(' } 0 .. $#w;
				my $k = defined $n ? $n + 1 : $#w;
				$def->($w[$k], $s->[$k][1], $local);
				next;
			}
			if ($firstparen > 0) {
				my @before = grep { !$keyword{$_} } @w[0 .. $firstparen - 1];
				if (@before >= 2 || $w[0] eq 'extern') {
					# a prototype: its name is declared, not used
					my $k = $firstparen - 1;
					$k = $firstparen + 2 if $w[$k] eq '(' || $w[$firstparen + 1] eq '*';
					my $n = $w[$k];
					@uses = grep { !($_->[0] eq $n && $_->[1] == $s->[$k][1]) } @uses;
				}
				next;
			}
			next if $w[0] eq 'extern';
			# struct x; (a forward declaration) or a variable
			next if @w == 2 && $w[0] =~ /^(struct|union|enum)$/;
			my $k = $#w;
			for my $i (0 .. $#w) {
				if ($w[$i] eq '=' || $w[$i] eq '[') { $k = $i - 1; last; }
			}
			$def->($w[$k], $s->[$k][1], $local) if $k >= 0;
			next;
		}
		push @stmt, $t;
	}
	push @errors, "$path: braces do not balance; cannot read it" if $depth != 0;
	# A definition is no use of itself.
	@uses = grep { !exists $defs{$_->[0]} } @uses;
	return (\%defs, \@uses, $inc);
}

# --- the check ------------------------------------------------------------
my (%global, %file_defs, %file_uses, %file_inc);
for my $f (@files) {
	my ($defs, $uses, $inc) = scan($f, $f =~ /\.c$/);
	$file_defs{$f} = $defs;
	$file_uses{$f} = $uses;
	$file_inc{$f} = $inc;
	for my $n (keys %$defs) {
		push @{$global{$n}}, $f unless $defs->{$n}[1];
	}
}

my %edge;	# same-layer uses: from => { to => "line name" }
my $nuses = 0;
for my $f (@files) {
	my $r = layer_of($f);
	for my $u (@{$file_uses{$f}}) {
		my ($n, $line) = @$u;
		for my $d (@{$global{$n} // []}) {
			next if $d eq $f;
			$nuses++;
			my $dr = layer_of($d);
			if ($dr > $r) {
				push @errors, "$f:$line: uses $n of $d: layer $layers[$dr] is above $layers[$r]";
			} elsif ($dr == $r) {
				$edge{$f}{$d} //= "$line $n";
			}
		}
	}
	for my $i (@{$file_inc{$f}}) {
		my ($h, $line) = @$i;
		my $p = -f "$top/" . dirname($f) . "/$h" ? dirname($f) . "/$h" : $h;
		$p =~ s{^\./}{};
		1 while $p =~ s{[^/]+/\.\./}{};
		if ($p =~ m{^test/}) {
			push @errors, "$f:$line: includes $h: test/ is only in a test build";
			next;
		}
		next unless -f "$top/$p";
		my $hr = layer_of($p);
		next unless defined $hr;
		push @errors, "$f:$line: includes $h: layer $layers[$hr] is above $layers[$r]"
			if $hr > $r;
	}
}

# Circles among the files of one layer.
my (%state, @stack);
sub visit {
	my ($f) = @_;
	$state{$f} = 1;
	push @stack, $f;
	for my $d (sort keys %{$edge{$f} // {}}) {
		if (($state{$d} // 0) == 1) {
			my @c = @stack[(grep { $stack[$_] eq $d } 0 .. $#stack)[0] .. $#stack];
			my ($line, $n) = split ' ', $edge{$f}{$d};
			push @errors, "circle in layer $layers[layer_of($f)]: " .
				join(' -> ', @c, $d) . " (closed by $f:$line, $n)";
		} elsif (!$state{$d}) {
			visit($d);
		}
	}
	pop @stack;
	$state{$f} = 2;
}
visit($_) for grep { !$state{$_} } sort keys %edge;

if (@errors) {
	print "layers: $_\n" for @errors;
	exit 1;
}
printf "layers: ok (%d files in %d layers, %d uses)\n", scalar @files, scalar @layers, $nuses;
exit 0;
